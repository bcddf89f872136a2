#!/usr/bin/env bash
# Device call 1: the staged mainloop checked (GPU tests of skinny and best, memcheck and racecheck of skinny), the
# register and staged mainloops side by side (staged_sweep), the tuner's sweeps and the shape grid.
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-staged-skinny
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
step sweep bash -c "timeout 100 $D/staged_sweep > $OUT/staged_sweep.txt 2>&1; cat $OUT/staged_sweep.txt"
step pytest bash -c "timeout 200 python3 -m pytest tests/test_gpu_shape_grid.py tests/test_gpu_kernels.py tests/test_gpu_native_ops.py -k 'skinny or best or grid' -q -p no:cacheprovider -rfE -x > $OUT/pytest.txt 2>&1; grep -E '^(FAILED|ERROR)' $OUT/pytest.txt | head -20; tail -1 $OUT/pytest.txt"
step sanitize bash -c "timeout 150 python3 -m tools.sanitize --kernels skinny --tools memcheck,racecheck > $OUT/sanitize.txt 2>&1; tail -4 $OUT/sanitize.txt"
step tune bash -c "timeout 150 python3 -m matmul_opt.tune --json $OUT/tune.json > $OUT/tune.txt 2> $OUT/tune.err; tail -3 $OUT/tune.err"
step grid bash -c "timeout 100 python3 -m matmul_opt --sizes 4096 --kernels skinny best cublas --accuracy-k --rest 0.2 --grid --json $OUT/grid.json > $OUT/grid.txt 2>&1; tail -60 $OUT/grid.txt"
