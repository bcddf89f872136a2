#!/usr/bin/env bash
# Device call 3: the peeled ragged edge on operands whose rows are padded to 16 bytes, as the shape grid's are
# (peel_probe 1).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-grid-gaps
source tools/device_env.sh
step peel bash -c "timeout 400 $D/peel_probe 1 > $OUT/peel-padded.txt 2>&1; cat $OUT/peel-padded.txt"
