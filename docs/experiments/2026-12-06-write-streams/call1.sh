#!/usr/bin/env bash
# Device call 1 of this record: run from the checkout with .gitcarry/s13 (lib_main.so.gz: main's library at ae809ae;
# lib_new.so.gz: the same with shortk's persistent schedule and the skinny bulk mainloop's slices summed in a
# cluster; lib_rows4.so.gz: main with shortk's persistent schedule and 4 rows per warp turn at K = 16) and
# .gitcarry/repo.bundle carried. The libraries' short-K and small-side times in alternating processes; the GPU tests
# of main's last host changes (never run on a GPU), of shortk and of skinny; the sanitizers over both; Nsight
# Compute over best on the grid's bytes-bound shapes.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
source tools/device_env.sh
D=docs/experiments/2026-12-06-write-streams
gunzip -c .gitcarry/s13/lib_new.so.gz > matmul_opt/libmatmul.so
gunzip -c .gitcarry/s13/lib_main.so.gz > /tmp/lib_main.so
gunzip -c .gitcarry/s13/lib_rows4.so.gz > /tmp/lib_rows4.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
SHORT=4096x4096x16,5000x3000x1,7777x4444x8,1000x3000x3,3000x5000x12,20000x700x16,1500x1500x5,6000x6000x2
SHORT+=,333x20000x16,65536x256x16
SMALL=13x5120x13824,17x8000x8000,11x14336x2500,3x11008x4096,9000x24x2000,4096x16x4096,7000x5x3000
SMALL+=,20x10000x3000,6x6000x5000,4x12000x16384,10000x12x6000,19x3000x20000
for i in 1 2; do
    for lib in main new rows4; do
        L=/tmp/lib_$lib.so && [ $lib = new ] && L=$PWD/matmul_opt/libmatmul.so
        step short-$lib-$i env MATMUL_OPT_LIBRARY=$L timeout 60 python3 $D/ab.py --shapes $SHORT \
            --kernels best,shortk,cublas --rounds 2 --json $OUT/ab-$lib-$i.json > $OUT/ab-$lib-$i.txt 2>&1
        [ $lib = rows4 ] && continue
        step small-$lib-$i env MATMUL_OPT_LIBRARY=$L timeout 60 python3 $D/ab.py --shapes $SMALL \
            --kernels best,skinny,cublas --rounds 2 --json $OUT/small-$lib-$i.json > $OUT/small-$lib-$i.txt 2>&1
    done
done
step tests timeout 150 python3 -m pytest -q -x -rfEs -p no:cacheprovider tests/test_gpu_precision.py \
    tests/test_gpu_register_split.py tests/test_gpu_short_k.py tests/test_gpu_kernels.py tests/test_gpu_shape_grid.py \
    -k "precision or dispatcher or register_split or wgmma_tf32 or best or shortk or short_k or short-k or skinny" \
    > $OUT/tests.log 2>&1
tail -3 $OUT/tests.log
step sanitize timeout 120 python3 -m tools.sanitize --kernels shortk,skinny --jobs 4 > $OUT/sanitize.txt 2>&1
cp results/latest/sanitizer-*.log $OUT/ 2>/dev/null
BYTES=8x4096x4096,4096x16x4096,13x5120x13824,7000x5x3000,1x1500x9000,11x14336x2500,9000x24x2000,17x8000x8000
BYTES+=,4096x4096x16,7777x4444x8,16x16x500000,32x32x300000
step ncu timeout 70 ncu --clock-control none \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size \
    python3 docs/experiments/2026-12-03-bytes-bound/profile_best.py best ${BYTES//,/ } > $OUT/ncu.txt 2>&1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv >> $OUT/gpu.txt
