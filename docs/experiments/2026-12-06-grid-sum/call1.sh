#!/usr/bin/env bash
# Device call 1 of this record, from main with tiny-c-next, grid-sum and grid-prologue merged, with
# .gitcarry/s29/lib_main.so.xz (main before, e4a5758), lib_combo.so.xz (tiny-c-next and grid-sum: the grid sums
# wgmma's K slices), lib_all.so.xz (this commit: also, wgmma_tf32's launch makes its own rounded copy),
# .gitcarry/repo.bundle and .whl carried:
#   1. lib_all: the whole GPU tier; lib_combo: the tests of the sums in the launch;
#   2. fixed_cost.py on C of at most 4 x 4 over a long K (tiny-c's call 5): main and all in alternating processes,
#      2 rounds;
#   3. A/B in alternating processes (ab.py, 2 rounds per library, main, combo and all): the TF32 grid shapes under
#      0.95x cuBLAS TF32, the fp32-accurate ones under 1.0x cuBLAS, and held-out shapes;
#   4. under ncu, the kernels a call of best_tf32 and best_fp32_accurate launches on three panels (each library);
#   5. asv's grid suite for this commit (lib_all);
#   6. the four sanitizers over wgmma_tf32 and wgmma_3xtf32_register_split with lib_all.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
unxz() {
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$@"
}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
for lib in main combo all; do unxz .gitcarry/s29/lib_$lib.so.xz /tmp/lib_$lib.so; done
cp /tmp/lib_all.so matmul_opt/libmatmul.so
step tier timeout 220 python3 -m pytest -q -rfEs -p no:cacheprovider -m gpu tests > $OUT/tier.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tier.log | head -20; tail -1 $OUT/tier.log
MATMUL_OPT_LIBRARY=/tmp/lib_combo.so step sums timeout 60 python3 -m pytest -q -rfEs -p no:cacheprovider \
    tests/test_gpu_kernels.py -k "slices_added" > $OUT/sums-combo.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/sums-combo.log | head; tail -1 $OUT/sums-combo.log
FC=docs/experiments/2026-12-06-one-launch/fixed_cost.py
for round in 1 2; do
    for lib in main all; do
        MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so step tiny-$lib-$round timeout 60 python3 $FC --calls 300 \
            --kernels best,cublas --shapes 1x1x1000000,1x1x262144,1x3x300000,4x4x1000000,2x1x500000,3x2x400000,3x1x1000000 \
            > $OUT/tiny-$lib-$round.log 2>&1
        cat $OUT/tiny-$lib-$round.log
    done
done
GRID=13x5120x13824,32x4096x4096,128x4096x4096,100x11008x4096,4096x64x4096,9000x24x2000,250x1500x3000,17x8000x8000
GRID+=,10000x2000x100,2048x12000x128,12000x1500x77,128x100x200000,500x500x60000,300x40x100000,200x300x20000
GRID+=,2048x4096x11008,300x28672x4096,1x4096x4096,1x1500x9000,385x769x1537
HELD=200x8000x3000,48x6000x5000,8000x40x3000,160x2500x2500,6000x5000x50,70x90x150000,30x700x33333
for round in 1 2; do
    for lib in main combo all; do
        MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so step ab-$lib-$round timeout 100 python3 \
            docs/experiments/2026-12-06-write-streams/ab.py --shapes $GRID,$HELD \
            --kernels cublas_tf32,wgmma_tf32,best_tf32,best_fp32_accurate,cublas \
            --rounds 1 --repetitions 10 --json $OUT/ab-$lib-$round.json > $OUT/ab-$lib-$round.log 2>&1
    done
done
python3 - $OUT <<'PY'
import json, statistics, sys
out = sys.argv[1]
libs = ("main", "combo", "all")
runs = {lib: [json.load(open(f"{out}/ab-{lib}-{r}.json"))["times"] for r in (1, 2)] for lib in libs}
def t(lib, key):
    return [v for run in runs[lib] for v in run.get(key, [])]
keys = sorted({k for run in runs["main"] for k in run})
print("kernel shape main_ms combo_ms all_ms combo/main all/main")
for key in keys:
    m, c, a = (statistics.mean(t(lib, key)) for lib in libs)
    print(key, f"{m:.4f} {c:.4f} {a:.4f} {c / m:.3f} {a / m:.3f}")
PY
for lib in main combo all; do
    MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so step ncu-passes-$lib timeout 60 ncu --clock-control none --csv \
        --metrics gpu__time_duration.sum,launch__grid_size,dram__bytes_read.sum,dram__bytes_write.sum \
        python3 $FC --ncu --shapes 128x4096x4096,4096x64x4096,250x1500x3000 --kernels best_tf32,best_fp32_accurate \
        > $OUT/ncu-passes-$lib.csv 2> $OUT/ncu-passes-$lib.err
done
step asv timeout 200 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) \
    --machine $(python3 -m benchmarks.machine) --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv.log 2>&1
tail -3 $OUT/asv.log
step sanitize timeout 120 python3 -m tools.sanitize --kernels wgmma_tf32,wgmma_3xtf32_register_split --jobs 4 \
    > $OUT/sanitize.log 2>&1
tail -8 $OUT/sanitize.log; cp results/latest/sanitizer-*.log $OUT/ 2>/dev/null
