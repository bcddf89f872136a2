#!/usr/bin/env bash
# Device call 3, on main with the policy landed (page-locked blocks from 1 to 16 MiB, the pageable pool and spare
# from 16 MiB): the host path's tests, tools.host_patterns, the report of results/latest (every rung of the README
# at 512 to 8192 and the ragged and long-K shapes, ozaki_int8 among them, each timing after 0.5 s of rest; the
# sustained table at 4096^3 and 8192^3), and asv's host-path patterns at this commit.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-host-register
R=results/latest
mkdir -p $D/logs
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $D/logs/call3-environment.txt
pack() { tar czf $OUT/results.tgz $R/report-h200.* $R/report-grid-h200.* results/asv $D/logs 2>/dev/null; }
step pytest bash -c "timeout 60 python3 -m pytest tests/test_gpu_host_path.py tests/test_cpu_results.py tests/test_cpu_memory.py -q -rfEs -p no:cacheprovider > $D/logs/call3-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $D/logs/call3-pytest.log | head; tail -1 $D/logs/call3-pytest.log"
step patterns bash -c "timeout 90 python3 -m tools.host_patterns --json $D/logs/call3-patterns.json > $D/logs/call3-patterns.txt 2>&1; cat $D/logs/call3-patterns.txt"
pack
KERNELS="naive optimized advanced warptile pipelined splitk tma streamk best mma_tf32 wgmma_tf32 wgmma_3xtf32 ozaki_int8 cublas cublas_tf32"
step report bash -c "timeout 270 python3 -m matmul_opt --kernels $KERNELS --sizes 512 1024 1536 2048 3072 4096 8192 4095x4097x4093 8192x8192x512 256x256x65536 1025x1023x1021 --sustained-sizes 4096 8192 --json $R/report-h200.json 2>/dev/null > $R/report-h200.txt; tail -32 $R/report-h200.txt"
pack
M=$(python3 -m benchmarks.machine)
step asv bash -c "timeout 110 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M --bench 'bench_host_patterns' > $D/logs/call3-asv.log 2>&1; tail -5 $D/logs/call3-asv.log"
pack
