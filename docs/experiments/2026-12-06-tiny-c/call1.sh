#!/usr/bin/env bash
# Device call 1 of this record, from the branch tiny-c (cluster-tile-sum merged in) with .gitcarry/s27/lib_main.so.xz
# (main, 0c116bb) and lib_new.so.xz (tiny-c: skinny's lanes take k spread out where X's rows hold one l-quad; the
# rearranging passes sized to the work; the shared cluster tile sum) carried:
#   1. lib_new: the whole GPU tier; the four sanitizers over skinny, wgmma_tf32, wgmma_3xtf32 and advanced;
#   2. fixed_cost.py (benchmark, host enqueue per call) for best (main, new) and cuBLAS on C of one element at
#      K = 16384 to 16000000 (the slope is the bandwidth, the intercept the fixed cost), and on tiny sides;
#   3. A/B in alternating processes (ab.py, 2 rounds per library): the TF32 grid shapes under 0.95x cuBLAS TF32 and
#      held-out shapes, cuBLAS TF32, best_tf32, best_fp32_accurate and cuBLAS;
#   4. under ncu: skinny's kernel at 1x1x1000000 (the full set, main and new); every kernel a call of best_tf32 and
#      best_fp32_accurate launches on three panels (main and new), and cuBLAS's at 1x1x1000000.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
unxz() {
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$@"
}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
unxz .gitcarry/s27/lib_main.so.xz /tmp/lib_main.so
unxz .gitcarry/s27/lib_new.so.xz /tmp/lib_new.so
cp /tmp/lib_new.so matmul_opt/libmatmul.so
step tier timeout 200 python3 -m pytest -q -rfEs -p no:cacheprovider -m gpu tests > $OUT/tier.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tier.log | head -20; tail -1 $OUT/tier.log
step sanitize timeout 200 python3 -m tools.sanitize --kernels skinny,wgmma_tf32,wgmma_3xtf32,advanced --jobs 4 \
    > $OUT/sanitize.log 2>&1
tail -8 $OUT/sanitize.log; cp results/latest/sanitizer-*.log $OUT/ 2>/dev/null
FC=docs/experiments/2026-12-06-one-launch/fixed_cost.py
for lib in main new; do
    export MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so
    kernels=best; [ $lib = main ] && kernels=best,cublas
    step sweep-$lib timeout 90 python3 $FC --calls 500 --kernels $kernels \
        --shapes 1x1x16384,1x1x65536,1x1x262144,1x1x1000000,1x1x4000000,1x1x16000000,2x1x500000,1x3x300000,4x4x1000000,1x7x700000 \
        > $OUT/sweep-$lib.log 2>&1
    cat $OUT/sweep-$lib.log
done
GRID=13x5120x13824,32x4096x4096,128x4096x4096,100x11008x4096,4096x64x4096,9000x24x2000,250x1500x3000,17x8000x8000
GRID+=,10000x2000x100,2048x12000x128,12000x1500x77,1x1x1000000,128x100x200000,500x500x60000,300x40x100000
GRID+=,200x300x20000,2048x4096x11008,300x28672x4096
HELD=200x8000x3000,48x6000x5000,8000x40x3000,160x2500x2500,6000x5000x50,1x1x300000,3x2x400000
for round in 1 2; do
    for lib in main new; do
        MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so step ab-$lib-$round timeout 100 python3 \
            docs/experiments/2026-12-06-write-streams/ab.py --shapes $GRID,$HELD \
            --kernels cublas_tf32,best_tf32,best_fp32_accurate,cublas \
            --rounds 1 --repetitions 10 --json $OUT/ab-$lib-$round.json > $OUT/ab-$lib-$round.log 2>&1
    done
done
python3 - $OUT <<'PY'
import json, statistics, sys
out = sys.argv[1]
runs = {lib: [json.load(open(f"{out}/ab-{lib}-{r}.json"))["times"] for r in (1, 2)] for lib in ("main", "new")}
def t(lib, key):
    return [v for run in runs[lib] for v in run.get(key, [])]
keys = sorted({k for run in runs["main"] for k in run})
print("kernel shape main_ms new_ms ratio")
for key in keys:
    m, n = t("main", key), t("new", key)
    if m and n:
        print(key, f"{statistics.mean(m):.4f} {statistics.mean(n):.4f} {statistics.mean(n) / statistics.mean(m):.3f}")
PY
for lib in main new; do
    export MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so
    step ncu-skinny-$lib timeout 60 ncu --set full -k regex:skinny -s 1 -c 1 -o $OUT/skinny-$lib \
        python3 $FC --ncu --shapes 1x1x1000000 --kernels best > $OUT/ncu-skinny-$lib.log 2>&1
    ncu --import $OUT/skinny-$lib.ncu-rep --page details > $OUT/ncu-skinny-$lib.txt 2>&1
    grep -E "skinny_along|Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput" \
        $OUT/ncu-skinny-$lib.txt | head -8
    step ncu-passes-$lib timeout 60 ncu --clock-control none --csv \
        --metrics gpu__time_duration.sum,launch__grid_size,dram__bytes_read.sum,dram__bytes_write.sum \
        python3 $FC --ncu --shapes 128x4096x4096,4096x64x4096,250x1500x3000 --kernels best_tf32,best_fp32_accurate \
        > $OUT/ncu-passes-$lib.csv 2> $OUT/ncu-passes-$lib.err
done
unset MATMUL_OPT_LIBRARY
cp /tmp/lib_main.so matmul_opt/libmatmul.so
step ncu-cublas timeout 60 ncu --clock-control none --csv \
    --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,dram__bytes_read.sum \
    python3 $FC --ncu --shapes 1x1x1000000 --kernels cublas > $OUT/ncu-cublas.csv 2> $OUT/ncu-cublas.err
