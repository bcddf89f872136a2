#!/usr/bin/env bash
# Device call 5 of this record, from the branch wide-stages at b63fe5c with .gitcarry/s24 (xz: lib_base, 3c06cbe's
# library; lib_v1, b63fe5c's: stages of 32 KB for tiles from 64 up; lib_v2, v1 with the 64 x 64 tile in four 32 x 32
# parts and two k-groups), .gitcarry/repo.bundle and .whl carried: the GPU tests of the longk kernels with v1 (and
# the long-K test file with v2); longk_tf32 and cuBLAS TF32 on call 3's 39 shapes, the three libraries in
# alternating processes, two rounds; the four sanitizers over longk_tf32 (v1); asv's grid suite for b63fe5c and the
# gate against 3c06cbe (recorded in call 4):
#   python3 -m tools.regressions 3c06cbe b63fe5c --results-dir results/asv --exact --threshold 0.03
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
LIBS="base v1 v2"
for lib in $LIBS; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        .gitcarry/s24/lib_$lib.so.xz /tmp/lib_$lib.so
done
cp /tmp/lib_v1.so matmul_opt/libmatmul.so
step tests-v1 timeout 100 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_long_k_kernel.py \
    tests/test_gpu_precision.py tests/test_gpu_kernels.py -k "longk or precision or dispatcher" > $OUT/tests-v1.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests-v1.log | head -20; tail -1 $OUT/tests-v1.log
MATMUL_OPT_LIBRARY=/tmp/lib_v2.so step tests-v2 timeout 60 python3 -m pytest -q -rfEs -p no:cacheprovider \
    tests/test_gpu_long_k_kernel.py > $OUT/tests-v2.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests-v2.log | head -20; tail -1 $OUT/tests-v2.log
LONG=300x40x100000,128x100x200000,500x500x60000,200x300x20000,64x64x1048576,32x32x300000,16x16x500000
HELD=100x60x150000,256x48x80000,96x200x50000,48x48x400000,20x200x200000,150x150x100000,40x250x60000,70x70x700000
SMALL=12x100x100000,9x200x200000,10x60x300000,24x64x500000,9x9x2000000
BOUND=200x200x100000,260x260x60000,384x384x50000,400x400x30000,640x640x20000,130x130x30000,180x200x30000
FRESH=77x90x400000,140x170x80000,110x300x40000,33x180x250000,350x120x60000,190x190x150000,45x130x300000
FRESH=$FRESH,15x400x150000,143x143x40000,144x143x40000,90x65x500000,230x30x200000
for round in 1 2; do
    for lib in $LIBS; do
        MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so step "times-$lib-$round" timeout 60 \
            python3 docs/experiments/2026-12-06-write-streams/ab.py --shapes $LONG,$HELD,$SMALL,$BOUND,$FRESH \
            --kernels cublas_tf32,longk_tf32 --rounds 1 --repetitions 10 --json $OUT/times-$lib-$round.json \
            > $OUT/times-$lib-$round.txt 2>&1
    done
done
step sanitize timeout 120 python3 -m tools.sanitize --kernels longk_tf32 --jobs 4 > $OUT/sanitize.txt 2>&1
tail -5 $OUT/sanitize.txt
M=$(python3 -m benchmarks.machine)  # names the machine through the library
step asv-v1 timeout 170 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse b63fe5c) \
    --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv-v1.log 2>&1
python3 -m tools.regressions 3c06cbe b63fe5c --results-dir results/asv --exact --threshold 0.03 > $OUT/gate.txt 2>&1
grep -A12 "^WORSE\|^BETTER" $OUT/gate.txt | head -30; tail -1 $OUT/gate.txt
