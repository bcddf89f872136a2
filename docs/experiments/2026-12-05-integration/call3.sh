#!/usr/bin/env bash
# Device call 3 of the integration record, after call 2's precision table is committed on next and its library
# rebuilt here: run from main's checkout with .gitcarry/repo.bundle (made after that commit, holding next),
# .gitcarry/s8/lib_next.so.gz (that commit's library) and .whl (asv's wheels) carried. asv of next's head, the
# grid suite and the kernels suite, whose results the landing commits. The regression gate runs here afterwards,
# against main's last results:
#   python3 -m tools.regressions BASE NEXT --results-dir results/asv --exact --threshold 0.03
export OUT=${OUT:-/tmp/out}
source tools/device_env.sh  # restores the history from the bundle
git checkout -q -f next
gunzip -c .gitcarry/s8/lib_next.so.gz > matmul_opt/libmatmul.so
M=$(python3 -m benchmarks.machine)
step asv timeout 540 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M \
    --bench 'bench_grid.GridSgemm.track_kernel_ms|bench_kernels.Sgemm.track_kernel_ms' > $OUT/asv.log 2>&1
tail -3 $OUT/asv.log
tar czf $OUT/asv.tgz results/asv
