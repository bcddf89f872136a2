#!/usr/bin/env bash
# Device call 6 of this record, from main with tiny-c-next landed, with .gitcarry/s30/lib_main.so.xz (this commit's
# library), .gitcarry/repo.bundle and .whl carried:
#   1. skinny's GPU tests with this library (the tier ran on the grid-sum record's lib_all, which holds the same
#      skinny sources);
#   2. asv's grid suite for this commit;
#   3. the four sanitizers over skinny.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
    .gitcarry/s30/lib_main.so.xz matmul_opt/libmatmul.so
step tests timeout 90 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_shape_grid.py \
    tests/test_gpu_kernels.py -k skinny > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log | head -20; tail -1 $OUT/tests.log
step asv timeout 200 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) \
    --machine $(python3 -m benchmarks.machine) --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv.log 2>&1
tail -3 $OUT/asv.log
step sanitize timeout 230 python3 -m tools.sanitize --kernels skinny --jobs 4 > $OUT/sanitize.log 2>&1
tail -6 $OUT/sanitize.log; cp results/latest/sanitizer-*-skinny.log $OUT/ 2>/dev/null
