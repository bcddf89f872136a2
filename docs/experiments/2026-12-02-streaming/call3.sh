#!/usr/bin/env bash
# Device call 3: the skinny kernel's launch shapes one by one (plan_sweep), and best with the long-K rule on the grid.
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-streaming
timeout 200 $D/plan_sweep > $OUT/plan_sweep.txt 2>&1; cat $OUT/plan_sweep.txt
timeout 150 python3 docs/experiments/2026-12-02-shape-grid/config_sweep.py --json $OUT/sweep.json > $OUT/sweep.txt 2> $OUT/sweep.err; cat $OUT/sweep.txt; tail -3 $OUT/sweep.err
