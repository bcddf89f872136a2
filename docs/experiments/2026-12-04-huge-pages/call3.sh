#!/usr/bin/env bash
# Device call 3: the commit that lands (the skinny copies and the huge-page result blocks): the host-path tests, and
# asv's grid and Sgemm suites and its host patterns at this commit (results/asv).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-huge-pages
L=$D/logs; mkdir -p $L
source tools/device_env.sh
M=$(python3 -m benchmarks.machine); H=$(git rev-parse HEAD)
save() { tar czf $OUT/logs.tgz $L results/asv; }
echo "commit $H" > $L/call3-environment.txt
step tests bash -c "timeout 60 python3 -m pytest tests/test_gpu_host_path.py tests/test_cpu_results.py -q -p no:cacheprovider > $L/call3-pytest.log 2>&1; tail -1 $L/call3-pytest.log"
step asv bash -c "timeout 390 python3 -m asv run --python=same --set-commit-hash=$H --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms|bench_kernels.Sgemm.track_kernel_ms' > $L/call3-asv.log 2>&1; tail -2 $L/call3-asv.log"
save
step asv-host bash -c "timeout 120 python3 -m asv run --python=same --set-commit-hash=$H --machine $M --bench 'bench_host_patterns' > $L/call3-asv-host.log 2>&1; tail -12 $L/call3-asv-host.log"
save
