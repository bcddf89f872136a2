#!/usr/bin/env bash
# Device call 4: the register-fed skinny kernel checked (GPU tests, memcheck, racecheck), its launch shapes one by
# one, every configuration forced on the shape grid, and the tuner's sweeps.
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-streaming
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
step pytest bash -c "timeout 200 python3 -m pytest tests/test_gpu_shape_grid.py tests/test_gpu_kernels.py -k 'skinny or best or grid' -q -p no:cacheprovider -rfE > $OUT/pytest.txt 2>&1; grep -E '^(FAILED|ERROR)' $OUT/pytest.txt | head -20; tail -1 $OUT/pytest.txt"
step sanitize bash -c "timeout 150 python3 scripts/sanitize.py --kernels skinny,best --tools memcheck,racecheck > $OUT/sanitize.txt 2>&1; tail -4 $OUT/sanitize.txt"
step plan_sweep bash -c "timeout 100 $D/plan_sweep > $OUT/plan_sweep.txt 2>&1; cat $OUT/plan_sweep.txt"
step sweep bash -c "timeout 150 python3 docs/experiments/2026-12-02-shape-grid/config_sweep.py --json $OUT/sweep.json > $OUT/sweep.txt 2> $OUT/sweep.err; cat $OUT/sweep.txt; tail -3 $OUT/sweep.err"
step tune bash -c "timeout 150 python3 -m matmul_opt.tune --json $OUT/tune.json > $OUT/tune.txt 2> $OUT/tune.err; tail -3 $OUT/tune.err"
