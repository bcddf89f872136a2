#!/usr/bin/env bash
# The first device call for wgmma_3xtf32 with A split in registers (docs/experiments/2026-12-01-register-a.md), run
# from the repository root of the branch register-a, matmul_opt/libmatmul.so built from it, carrying
# .variants/register-a-ab.tar.xz: main's library (main-51763d8.so), the branch with pass4-unguarded.patch
# (register-a-pass4.so) and the branch dynamic-units (register-a-dynamic.so), each built off the device.
# For the branch and for dynamic-units: the GPU tests of wgmma_3xtf32, its products bit for bit against main's, and
# each build timed against main's in alternating processes (scripts/ab_compare.py); then pass4's timing, and, while
# the call's time lasts, racecheck and memcheck over both and the accuracy sweep. The SM clock and power are sampled.
set -uo pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
L=${OUT:-/tmp/register-a}/logs
V=.variants
mkdir -p "$L"
tar xJf $V/register-a-ab.tar.xz -C $V
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
ab() {  # ab LIBRARY: the library against main's, wgmma_3xtf32 and cuBLAS fp32 at the asv shapes
    local name; name=$(basename "$1" .so)
    step "ab $name" bash -c "timeout 75 python3 scripts/ab_compare.py $V/main-51763d8.so $1 --rounds 3 \
        --kernels wgmma_3xtf32,cublas --json $L/ab-$name.json > $L/ab-$name.txt 2>&1; cat $L/ab-$name.txt"
}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$L/environment.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 200 > "$L/clocks.csv" &
SAMPLER=$!
for lib in matmul_opt/libmatmul.so $V/register-a-dynamic.so; do
    name=$(basename "$lib" .so)
    step "pytest $name" bash -c "MATMUL_OPT_LIBRARY=$PWD/$lib timeout 100 python3 -m pytest tests -q -k 3xtf32 \
        -p no:cacheprovider > $L/pytest-$name.log 2>&1; tail -1 $L/pytest-$name.log"
    step "bitwise $name" bash -c "timeout 60 python3 docs/experiments/2026-12-01-register-a/bitwise_compare.py \
        $V/main-51763d8.so $lib > $L/bitwise-$name.log 2>&1; cat $L/bitwise-$name.log"
    ab $lib
done
ab $V/register-a-pass4.so
for lib in matmul_opt/libmatmul.so $V/register-a-dynamic.so; do
    [ $SECONDS -lt 420 ] || break
    name=$(basename "$lib" .so)
    step "sanitize $name" bash -c "MATMUL_OPT_LIBRARY=$PWD/$lib timeout 60 python3 scripts/sanitize.py \
        --tools racecheck,memcheck --kernels wgmma_3xtf32 > $L/sanitize-$name.log 2>&1; tail -3 $L/sanitize-$name.log"
done
[ $SECONDS -lt 480 ] && step accuracy bash -c "timeout 50 python3 docs/experiments/2026-12-01-operand-passes/accuracy_sweep.py \
    register-a > $L/accuracy.log 2>&1; cut -c1-200 $L/accuracy.log"
kill $SAMPLER
