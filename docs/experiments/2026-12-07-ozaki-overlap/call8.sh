#!/usr/bin/env bash
# Device call 8 of this record (not run: its machine was taken back once; four more requests got none), from branch
# ozaki-lean (commit NEW, its tip: ozaki-lean-next's kernels on main), with .gitcarry/s12/lib_lean.so.xz (their
# library, as call 7 checked it),
# .gitcarry/repo.bundle and .whl: asv's Sgemm suite (kernel times) for NEW, which ran past call 7's 200 s, with more
# time; then, as the call's limit allows (CALL_LIMIT seconds), the report of issue 36's figures; everything into
# $OUT/all.tgz.
LOG=/tmp/log; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
NEW=$(git rev-parse HEAD)
pack() { tar czf $OUT/all.tgz -C /tmp log -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/all.tgz -C /tmp log; }
echo "NEW $NEW" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv | tee $LOG/gpu.txt
python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
    .gitcarry/s12/lib_lean.so.xz matmul_opt/libmatmul.so
step asv timeout 330 python3 -m asv run --python=same --set-commit-hash=$NEW \
    --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $LOG/asv.log 2>&1
tail -3 $LOG/asv.log; pack
[ $((SECONDS + 50)) -lt ${CALL_LIMIT:-540} ] && step report timeout 50 python3 -m matmul_opt \
    --kernels ozaki_int8 wgmma_3xtf32 cublas --sizes 4096 8192 16384 --sustained-sizes 8192 16384 \
    --verify-size 256 > $LOG/report-lib_lean.txt 2>&1
grep -E "^(4096|8192|16384)x" $LOG/report-lib_lean.txt
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
