#!/usr/bin/env bash
# Device call 2: large products with a ragged last wave of tma 128x256x32 tiles, against stream-K (waves.py).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-mid-size
mkdir -p $D/logs
source tools/device_env.sh >/dev/null 2>&1
step link link_library
step waves bash -c "timeout 200 python3 $D/waves.py --json $D/logs/call2-waves.json > $D/logs/call2-waves.txt 2>&1; cat $D/logs/call2-waves.txt"
tar czf $OUT/logs.tgz $D/logs
