#!/usr/bin/env bash
# Device call 2 of this record, from main at the cluster change's merge with the branch's library
# (.gitcarry/s26/lib_branch.so.xz: the kernels are call 1's; only tests and the sanitizer driver changed since),
# .gitcarry/repo.bundle and .whl carried: the cluster test in every width at K slices the clusters take (3 to 7), the
# four sanitizers over wgmma_tf32 with the driver's clustered shape, and asv's grid suite for this commit.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
    .gitcarry/s26/lib_branch.so.xz matmul_opt/libmatmul.so
step tests timeout 60 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_kernels.py \
    -k "cluster or cooperative" > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log | head -20; tail -1 $OUT/tests.log
step sanitize timeout 90 python3 -m tools.sanitize --kernels wgmma_tf32 --jobs 4 > $OUT/sanitize.log 2>&1
tail -6 $OUT/sanitize.log; cp results/latest/sanitizer-*.log $OUT/ 2>/dev/null
step asv timeout 200 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) \
    --machine $(python3 -m benchmarks.machine) --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv.log 2>&1
tail -3 $OUT/asv.log
