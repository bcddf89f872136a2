#!/usr/bin/env bash
# Device call 3 of this record, from main with the change landed, with .gitcarry/s3/lib_main.so.xz (this commit's
# library, the same machine code as call 2's lib_epi), .gitcarry/repo.bundle and .whl carried:
#   1. the whole GPU tier with this library;
#   2. Nsight Compute's sections over ozaki_int8's residue passes, product and rebuild at 8192^3 (where their time goes);
#   3. asv's Sgemm suite (kernel times) for this commit;
#   4. the four sanitizers over ozaki_int8.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
R=docs/experiments/2026-12-06-ozaki-check
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
    .gitcarry/s3/lib_main.so.xz matmul_opt/libmatmul.so
step tier timeout 170 python3 -m pytest -q -rfEs -p no:cacheprovider -m gpu tests > $OUT/tier.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tier.log | head -20; tail -1 $OUT/tier.log
step ncu timeout 80 ncu --kernel-name regex:'residues_kernel|rebuild_kernel|ozaki_int8_kernel' \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
    --section SchedulerStats --section LaunchStats python3 $R/probe.py 8192x8192x8192 > $OUT/ncu-sections.txt 2>&1
step asv timeout 200 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) \
    --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $OUT/asv.log 2>&1
tail -3 $OUT/asv.log
step sanitize timeout 60 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $OUT/sanitize.log 2>&1
tail -6 $OUT/sanitize.log; cp results/latest/sanitizer-*-ozaki_int8.log $OUT/ 2>/dev/null
