#!/usr/bin/env bash
# Device call 2: racecheck, initcheck and synccheck over the kernels that use the split-K reduction (skinny, longk,
# splitk), whose batched loads the small-c record measured; memcheck ran clean in that record's call.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-hopper-frame
mkdir -p $D/logs/reduction
source tools/device_env.sh
[ -f matmul_opt/libmatmul.so ] || step link link_library
for tool in racecheck initcheck synccheck; do
    step $tool bash -c "timeout 180 python3 -m tools.sanitize --tools $tool --kernels skinny,longk,splitk > $D/logs/reduction/$tool.log 2>&1; cp results/latest/sanitizer-$tool.log $D/logs/reduction/; tail -2 $D/logs/reduction/$tool.log"
    tar czf $OUT/logs.tgz $D/logs
done
