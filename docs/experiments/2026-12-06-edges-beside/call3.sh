#!/usr/bin/env bash
# Device call 3 of this record: run from the checkout with .gitcarry/s15/lib_beside.so.gz (the change: best's ragged
# edges on a side stream beside the bulk, built here), lib_head.so.gz (main's head), .gitcarry/repo.bundle and
# .whl carried. The change's GPU tests of best's cuts and the shape grid; edges.py with each library; memcheck and
# synccheck over best; asv's grid suite at the change, for the gate against 25634d5 (this record's call 1).
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
for lib in head beside; do gunzip -c .gitcarry/s15/lib_$lib.so.gz > /tmp/lib_$lib.so; done
cp /tmp/lib_beside.so matmul_opt/libmatmul.so
HERE=docs/experiments/2026-12-06-edges-beside
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
step tests timeout 150 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_shape_grid.py > $OUT/tests.log 2>&1
tail -3 $OUT/tests.log
SHAPES="1153x1153x1153:1152x1152 4097x4097x4097:4096x4096 1537x2561x1025:1536x2560"
for i in 1 2; do
    for lib in head beside; do
        step edges-$lib-$i env MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so timeout 60 python3 $HERE/edges.py $SHAPES \
            > $OUT/edges-$lib-$i.txt 2>&1
    done
done
paste $OUT/edges-head-1.txt $OUT/edges-beside-1.txt $OUT/edges-head-2.txt $OUT/edges-beside-2.txt | \
    awk '{print $1, $2, $3, $6, $9, $12}' | grep -E "best|cublas|forked"
M=$(python3 -m benchmarks.machine)
step asv timeout 200 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M \
    --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv.log 2>&1
tail -2 $OUT/asv.log
step sanitize timeout 150 python3 -m tools.sanitize --kernels best --tools memcheck,synccheck --jobs 2 \
    > $OUT/sanitize.txt 2>&1
tail -4 $OUT/sanitize.txt
