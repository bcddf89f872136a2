#!/usr/bin/env bash
# Device call 2: the skinny kernel with cluster sums, checked (GPU tests, memcheck and racecheck), every configuration
# forced on the shape grid, and the tuner's sweeps with the new long-K one.
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD OUT=${OUT:-/tmp/out}
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
step pytest bash -c "timeout 200 python3 -m pytest tests/test_gpu_shape_grid.py tests/test_gpu_kernels.py -k 'skinny or best or grid' -q -p no:cacheprovider -rfE > $OUT/pytest.txt 2>&1; grep -E '^(FAILED|ERROR)' $OUT/pytest.txt | head -20; tail -1 $OUT/pytest.txt"
step sanitize bash -c "timeout 150 python3 scripts/sanitize.py --kernels skinny,best --tools memcheck,racecheck > $OUT/sanitize.txt 2>&1; tail -4 $OUT/sanitize.txt"
step sweep bash -c "timeout 150 python3 docs/experiments/2026-12-02-shape-grid/config_sweep.py --json $OUT/sweep.json > $OUT/sweep.txt 2> $OUT/sweep.err; cat $OUT/sweep.txt; tail -3 $OUT/sweep.err"
step tune bash -c "timeout 150 python3 -m matmul_opt.tune --json $OUT/tune.json > $OUT/tune.txt 2> $OUT/tune.err; tail -75 $OUT/tune.txt | head -40; tail -3 $OUT/tune.err"
