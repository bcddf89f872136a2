#!/usr/bin/env bash
# Device call 3: the register mainloop only where its lanes read Y whole; the whole test suite, the shape grid with
# the re-tuned table, and every configuration forced on the grid (for best's choice among the tiles).
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-staged-skinny
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
step sweep bash -c "timeout 100 $D/staged_sweep > $OUT/staged_sweep.txt 2>&1; head -12 $OUT/staged_sweep.txt"
step grid bash -c "timeout 100 python3 -m matmul_opt --sizes 4096 --kernels skinny best cublas --accuracy-k --rest 0.2 --grid --json $OUT/grid.json > $OUT/grid.txt 2>&1; tail -56 $OUT/grid.txt"
step configs bash -c "timeout 150 python3 docs/experiments/2026-12-02-shape-grid/config_sweep.py --json $OUT/config_sweep.json > $OUT/config_sweep.txt 2> $OUT/config_sweep.err; tail -2 $OUT/config_sweep.err"
step pytest bash -c "timeout 250 python3 -m pytest tests -q -p no:cacheprovider -rfE > $OUT/pytest.txt 2>&1; grep -E '^(FAILED|ERROR)' $OUT/pytest.txt | head -20; tail -1 $OUT/pytest.txt"
