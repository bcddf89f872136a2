#!/usr/bin/env bash
# Device call 1 of this record, from main (HEAD: the tuner's wider ozaki sweep), with .gitcarry/s13/build.tar.xz (the
# objects of HEAD's library, built here), .gitcarry/repo.bundle (made on main) and .whl:
#   1. the tuner's ozaki sweep measured anew (the other sweeps' timings from results/latest/tune-h200.json), its
#      tables written, by_precision.cu rebuilt against them and the library linked;
#   2. the new tables committed here with fixed metadata (COMMIT_* above), so that the same files committed on the
#      development machine with the same metadata give the same commit, which asv's results name;
#   3. the fp32-accurate class's and the tuner's GPU tests;
#   4. asv's Sgemm suite (kernel times) for that commit, and the report of best_fp32_accurate beside ozaki_int8,
#      wgmma_3xtf32 and cuBLAS SGEMM on products that no sweep and no grid holds, as the call's limit allows
#      (CALL_LIMIT seconds);
# everything into one tarball, $OUT/all.tgz, re-packed after each step.
LOG=/tmp/log; mkdir -p $LOG
COMMIT_DATE="2026-12-07T14:00:00+0000"
COMMIT_MESSAGE="precision_table.h: the fp32-accurate class's ozaki_int8 bounds from the wider ozaki sweep (call 1 of \
docs/experiments/2026-12-07-ozaki-bounds; the GPU it ran on is named in the table and in measured_on)"
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
pack() { tar czf $OUT/all.tgz -C /tmp log -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/all.tgz -C /tmp log; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-480} ]; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
source tools/device_env.sh
echo "HEAD $(git rev-parse HEAD)" | tee $LOG/commit.txt
tar xJf .gitcarry/s13/build.tar.xz && step link link_library
step tune timeout 240 python3 -m matmul_opt.tune --from-json results/latest/tune-h200.json --remeasure ozaki \
    --other-gpu --json $LOG/tune.json --write > $LOG/tune.txt 2>&1
grep -iE "ozaki|error|Traceback" $LOG/tune.txt | tail -20
cp cuda/kernels/precision_table.h cuda/kernels/best_table.h $LOG/; git diff --stat | tee $LOG/diff.txt; pack
cp $LOG/tune.json results/latest/tune-h200.json
step rebuild bash -c "compile_objects cuda/kernels/by_precision.cu cuda/kernels/best.cu && link_library"
git add results/latest/tune-h200.json cuda/kernels/precision_table.h cuda/kernels/best_table.h
GIT_AUTHOR_NAME=matmul-opt GIT_AUTHOR_EMAIL=dev@matmul-opt GIT_AUTHOR_DATE="$COMMIT_DATE" \
    GIT_COMMITTER_NAME=matmul-opt GIT_COMMITTER_EMAIL=dev@matmul-opt GIT_COMMITTER_DATE="$COMMIT_DATE" \
    git commit -q -m "$COMMIT_MESSAGE"
NEW=$(git rev-parse HEAD); echo "NEW $NEW" | tee -a $LOG/commit.txt
step tests timeout 90 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_precision.py tests/test_gpu_ozaki.py \
    tests/test_tune.py -k "fp32_accurate or by_precision or precision or tune" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log; pack
fits 160 && step asv timeout $((${CALL_LIMIT:-480} - SECONDS - 5)) python3 -m asv run --python=same \
    --set-commit-hash=$NEW --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' \
    > $LOG/asv.log 2>&1
tail -1 $LOG/asv.log; pack
fits 40 && step report timeout 40 python3 -m matmul_opt --kernels best_fp32_accurate ozaki_int8 wgmma_3xtf32 cublas \
    --sizes 5000x3000x7001 2500x6000x3500 7000x7000x7000 10000x10000x2500 3500x3500x3500 --accuracy-k \
    --verify-size 256 --json $LOG/report.json > $LOG/report.txt 2>&1
grep -E "^[0-9]+x" $LOG/report.txt; pack
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
