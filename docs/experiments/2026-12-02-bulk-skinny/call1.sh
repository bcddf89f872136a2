#!/usr/bin/env bash
# Device call 1: the bulk mainloop's sweep (bulk_probe) beside the library's skinny, best and cuBLAS.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-bulk-skinny
source tools/device_env.sh
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
step bulk bash -c "timeout 300 $D/bulk_probe > $OUT/call1-bulk-probe.txt 2>&1; cat $OUT/call1-bulk-probe.txt"
