#!/usr/bin/env bash
# Device call 1: the probe (pipelined register stream on few-row shapes, plain reads) and best / cuBLAS beside it.
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-pipelined-stream
mkdir -p $OUT/logs
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $OUT/logs/gpu.txt
timeout 200 $D/probe > $OUT/logs/call1-probe.txt 2>&1; echo "probe rc=$?" >> $OUT/logs/call1-probe.txt
timeout 200 python3 $D/bench.py > $OUT/logs/call1-bench.txt 2>&1; echo "bench rc=$?" >> $OUT/logs/call1-bench.txt
cat $OUT/logs/call1-probe.txt $OUT/logs/call1-bench.txt
