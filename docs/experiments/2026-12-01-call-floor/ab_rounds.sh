#!/usr/bin/env bash
# Alternating processes of the tree before (.ab/old: its matmul_opt package with its library) and this tree, ROUNDS
# times (default 3): floor_probe.py for one round, then the small-calls probe's per-call rows at 64^3.
#   bash docs/experiments/2026-12-01-call-floor/ab_rounds.sh [ROUNDS]
set -u
ROUNDS=${1:-3}
HERE=docs/experiments/2026-12-01-call-floor
export PYTHONUNBUFFERED=1
for round in $(seq "$ROUNDS"); do
    for tree in .ab/old .; do
        echo "== round $round, tree $tree"
        PYTHONPATH=$tree:. python3 $HERE/floor_probe.py 1
        python3 docs/experiments/2026-12-01-small-calls/small_call_probe.py $tree
    done
done
