#!/usr/bin/env bash
# Device call 2: unaligned products staged through padded copies, and every configuration and split count of best
# on the grid's weak shapes and others (align_probe; timings to align.json).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-grid-gaps
source tools/device_env.sh
step align bash -c "timeout 400 $D/align_probe $OUT/align.json > $OUT/align.txt 2>&1; cat $OUT/align.txt"
