#!/usr/bin/env bash
# Device call 2: speed of the two variants against main in alternating processes (speed.py, 3 rounds each):
# skinny with folded sums (ab/fold) on the one-row and panel shapes of the grid and the held-out grid, best and skinny
# beside cuBLAS fp32; wgmma_tf32 with the narrow tile (ab/narrow) on every grid shape and the cubes 1024³ to 8192³,
# best_tf32 and wgmma_tf32 beside cuBLAS TF32.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-fold-and-narrow
mkdir -p $D/logs
source tools/device_env.sh >/dev/null 2>&1
[ -f matmul_opt/libmatmul.so ] || step link link_library
variant() {
    local name=$1 o; shift
    [ -f /tmp/lib-$name.so ] && return
    rm -rf /tmp/build-$name && cp -r build /tmp/build-$name || return
    for o in "$@"; do cp ab/$name/$o /tmp/build-$name/$o || return; done
    nvcc -gencode 'arch=compute_90,code=[sm_90,compute_90]' -shared -o /tmp/lib-$name.so \
        $(find /tmp/build-$name/api /tmp/build-$name/core /tmp/build-$name/kernels -name '*.o' | sort) -ldl
}
step link-fold variant fold kernels/skinny.o
step link-narrow variant narrow kernels/wgmma_tf32_sm90a.o api/registry.o
SKINNY=$(python3 -c "from matmul_opt.shape_grid import GRID, HELD_OUT; print(' '.join(s.name for s in GRID + HELD_OUT if s.klass in ('one-row', 'panel')))")
GRIDSHAPES=$(python3 -c "from matmul_opt.shape_grid import GRID; print(' '.join(s.name for s in GRID))")
ab() {  # ab LOG VARIANT KERNELS SHAPES...
    local log=$1 variant=$2 kernels=$3 round v lib; shift 3
    for round in 1 2 3; do
        for v in main $variant; do
            lib=$PWD/matmul_opt/libmatmul.so; [ $v = main ] || lib=/tmp/lib-$v.so
            MATMUL_OPT_LIBRARY=$lib timeout 90 python3 docs/experiments/2026-12-03-pairwise/speed.py $v $kernels "$@" >> $log 2>> ${log%.jsonl}.err
            echo "round $round $v rc=$?"
        done
    done
}
rm -f $D/logs/call2-*.jsonl
step fold ab $D/logs/call2-fold.jsonl fold best,skinny,cublas $SKINNY
for k in best skinny; do python3 $D/ab_table.py $D/logs/call2-fold.jsonl $k cublas main fold > $D/logs/call2-fold-$k.txt; done
tail -3 $D/logs/call2-fold-*.txt
tar czf $OUT/logs.tgz $D/logs
step narrow ab $D/logs/call2-narrow.jsonl narrow best_tf32,wgmma_tf32,cublas_tf32 1024x1024x1024 2048x2048x2048 4096x4096x4096 8192x8192x8192 $GRIDSHAPES
for k in best_tf32 wgmma_tf32; do python3 $D/ab_table.py $D/logs/call2-narrow.jsonl $k cublas_tf32 main narrow > $D/logs/call2-narrow-$k.txt; done
tail -3 $D/logs/call2-narrow-*.txt
tar czf $OUT/logs.tgz $D/logs
