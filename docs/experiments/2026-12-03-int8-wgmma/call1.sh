#!/usr/bin/env bash
# Device call 1 of the INT8 probe (issue 36's first measurement): builds int8_probe.cu on the H200 (sm_90a), checks
# it bit for bit against a plain int32 kernel, and times it rested and sustained at 4096³, 8192³ and 16384³; the
# same under compute-sanitizer memcheck and racecheck at a small size.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-int8-wgmma
mkdir -p $D/logs
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version,power.limit --format=csv; git rev-parse HEAD; date -u; } > $D/logs/call1-environment.txt
nvcc -O3 -std=c++20 -gencode arch=compute_90a,code=sm_90a -Icuda $D/int8_probe.cu -o /tmp/int8_probe > $D/logs/call1-build.log 2>&1
echo "build rc=$?"
timeout 120 /tmp/int8_probe > $D/logs/call1-probe.txt 2>&1; echo "probe rc=$?"; cat $D/logs/call1-probe.txt
for tool in memcheck racecheck; do
    timeout 200 compute-sanitizer --tool $tool /tmp/int8_probe 512 > $D/logs/call1-$tool.log 2>&1
    echo "$tool rc=$?"; tail -2 $D/logs/call1-$tool.log
done
tar czf $OUT/logs.tgz $D/logs
