#!/usr/bin/env bash
# Device call 3 of this record, from the branch's checkout with .gitcarry/s20/lib_head.so.gz (main's library at
# a35f72b), lib_new.so.gz (the branch head's), .gitcarry/repo.bundle and .whl carried: longk_tf32 against wgmma_tf32
# around best_tf32's tile bound (9, 12, 16 tiles of 64); asv's grid suite for main and the branch head, one after the
# other on the same machine, and the gate:
#   python3 -m tools.regressions a35f72b HEAD --results-dir results/asv --exact --threshold 0.03
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
AB=docs/experiments/2026-12-06-write-streams/ab.py
gunzip -c .gitcarry/s20/lib_new.so.gz > matmul_opt/libmatmul.so
step bound timeout 60 python3 $AB --shapes 130x130x100000,180x200x60000,250x250x40000 \
    --kernels cublas_tf32,longk_tf32,wgmma_tf32,best_tf32 --rounds 3 --repetitions 10 > $OUT/bound.txt 2>&1
cat $OUT/bound.txt
M=$(python3 -m benchmarks.machine)  # names the machine through the library
for run in base:a35f72b final:HEAD; do
    lib=${run%%:*}; [ $lib = base ] && gz=lib_head || gz=lib_new
    gunzip -c .gitcarry/s20/$gz.so.gz > matmul_opt/libmatmul.so
    step asv-$lib timeout 200 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse ${run#*:}) \
        --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv-$lib.log 2>&1
done
python3 -m tools.regressions a35f72b HEAD --results-dir results/asv --exact --threshold 0.03 > $OUT/gate.txt 2>&1
grep -A16 "^WORSE\|^BETTER" $OUT/gate.txt | head -40; tail -2 $OUT/gate.txt
