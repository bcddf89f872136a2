#!/usr/bin/env bash
# Device call 2: the streamed schedule with every slot, with its blocks aligned to whole K slices of columns
# (columns x slices) and with one block per SM (MM_SKINNY_STREAMED_BLOCKS), against skinny as planned, best
# (whose long-K rule now leaves a small side against a large one to the skinny kernel) and cuBLAS; then the ozaki
# norms scaling's call 3 (phases, speed, grid error).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-streamed-skinny
mkdir -p $D/logs
source tools/device_env.sh >/dev/null 2>&1
step link link_library
step speed bash -c "timeout 200 python3 $D/speed.py --rounds 3 --json $D/logs/call2-speed.json > $D/logs/call2-speed.txt 2>&1; cat $D/logs/call2-speed.txt"
tar czf $OUT/logs.tgz $D/logs
bash docs/experiments/2026-12-03-ozaki-norms/call3.sh
