#!/usr/bin/env bash
# The second device call for the register-a record: why the branch is slower than main. Run from the repository
# root of the branch register-a, carrying .variants/register-a-call2.tar.xz (main-ebb167a.so, register-a-now.so:
# this branch, register-a-dynamic.so). The GPU tests of wgmma_3xtf32 with the failures' reports, racecheck over
# dynamic-units in full, Nsight Compute sections of one 4096^3 wgmma_3xtf32 launch of main and of the branch (ncu's
# base clocks, so the comparison is of work, not of power), and each library held busy at 4096^3 and 8192^3 in
# alternating order beside an nvidia-smi trace of the SM clock and power. Everything lands in $OUT/call2.tgz.
set -uo pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
HERE=docs/experiments/2026-12-01-register-a
L=${OUT:-/tmp/register-a}/call2
V=.variants
mkdir -p "$L"
tar xJf $V/register-a-call2.tar.xz -C $V
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
for lib in register-a-now register-a-dynamic; do
    step "pytest $lib" bash -c "MATMUL_OPT_LIBRARY=$PWD/$V/$lib.so timeout 90 python3 -m pytest tests -q -rfE -k 3xtf32 \
        -p no:cacheprovider > $L/pytest-$lib.log 2>&1; grep -E '^(FAILED|ERROR)' $L/pytest-$lib.log; tail -1 $L/pytest-$lib.log"
done
step "racecheck dynamic" bash -c "MATMUL_OPT_LIBRARY=$PWD/$V/register-a-dynamic.so timeout 60 python3 scripts/sanitize.py \
    --tools racecheck --kernels wgmma_3xtf32 > $L/racecheck-dynamic.log 2>&1; tail -3 $L/racecheck-dynamic.log; \
    cp docs/results/sanitizer-racecheck.log $L/racecheck-dynamic-full.log"
for lib in main-ebb167a register-a-now; do
    step "ncu $lib" bash -c "MATMUL_OPT_LIBRARY=$PWD/$V/$lib.so timeout 90 ncu --kernel-name regex:wgmma_3xtf32_kernel \
        --launch-skip 1 --launch-count 1 --section SpeedOfLight --section ComputeWorkloadAnalysis \
        --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section InstructionStats \
        python3 -c 'import matmul_opt; matmul_opt.benchmark(\"wgmma_3xtf32\", 4096, 4096, 4096, warmup=1, repetitions=1)' \
        > $L/ncu-$lib.txt 2>&1; grep -E 'Duration|SM Frequency|Compute \\(SM\\) Throughput|Issue Slots Busy|Warp Cycles Per Issued' $L/ncu-$lib.txt"
done
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 > "$L/clocks.csv" &
SAMPLER=$!
for size in 4096 8192; do
    for lib in main-ebb167a register-a-now main-ebb167a register-a-now; do
        MATMUL_OPT_LIBRARY=$PWD/$V/$lib.so timeout 30 python3 $HERE/sustained.py $lib $size 4
    done
done 2>&1 | tee $L/sustained.txt
kill $SAMPLER
python3 $HERE/clock_medians.py $L/clocks.csv $L/sustained.txt | tee $L/sustained-clocks.txt
tar czf ${OUT:-/tmp/register-a}/call2.tgz -C "$(dirname $L)" call2
