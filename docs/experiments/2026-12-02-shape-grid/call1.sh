#!/usr/bin/env bash
# Device call 1 of the shape-grid work: the GPU tests of the new kernels, every configuration on the grid, the tuner.
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-shape-grid
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv > $OUT/env.txt
timeout 240 python3 -m pytest tests/test_gpu_shape_grid.py ${TESTS:-tests/test_gpu_kernels.py tests/test_gpu_native_ops.py} \
    -q --maxfail=30 -p no:cacheprovider -rfE > $OUT/pytest.txt 2>&1; tail -25 $OUT/pytest.txt
timeout 200 python3 $D/config_sweep.py --json $OUT/sweep.json > $OUT/sweep.txt 2> $OUT/sweep.err; cat $OUT/sweep.txt; tail -3 $OUT/sweep.err
timeout 150 python3 -m matmul_opt.tune --json $OUT/tune.json > $OUT/tune.txt 2> $OUT/tune.err; tail -45 $OUT/tune.txt; tail -3 $OUT/tune.err
