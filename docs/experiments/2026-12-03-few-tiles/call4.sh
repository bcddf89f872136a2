#!/usr/bin/env bash
# Device call 4 of the few-tiles record, on commit 2e1d9be (not landed): the cluster sum only where every tile's cluster fits
# in the first wave (cudaOccupancyMaxActiveClusters), and best's tables from call 2's tuner run. probe.py's times,
# the GPU tests of every configuration of best and of the op combinations, and asv's grid and Sgemm suites at this
# commit (results/asv).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-few-tiles
mkdir -p $D/logs
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $D/logs/call4-environment.txt
save() { tar czf $OUT/logs.tgz $D/logs results/asv; }
step times bash -c "timeout 60 python3 $D/probe.py times > $D/logs/call4-times.txt 2>&1; cat $D/logs/call4-times.txt"
save
step tests bash -c "timeout 100 python3 -m pytest tests/test_gpu_kernels.py tests/test_gpu_native_ops.py -q -p no:cacheprovider > $D/logs/call4-tests.log 2>&1; grep -E '^(FAILED|ERROR)' $D/logs/call4-tests.log | head; tail -1 $D/logs/call4-tests.log"
save
M=$(python3 -m benchmarks.machine)
step asv bash -c "timeout 420 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms|bench_kernels.Sgemm.track_kernel_ms' > $D/logs/call4-asv.log 2>&1; tail -3 $D/logs/call4-asv.log"
save
