#!/usr/bin/env bash
# The checks of a committed HEAD on the H200, in runs of at most 10 minutes each:
#   tools/h200_check.sh verify [BASE]     build, the whole test suite, compute-sanitizer (four tools), the report,
#                                         the tuner, the leak loop, paired best/cuBLAS rounds, end-to-end costs
#                                         (tools/end_to_end.py); with BASE (a commit) also an A/B of BASE's library
#                                         against HEAD's in alternating processes (tools/ab_compare.py)
#   tools/h200_check.sh asv [BASE]        the offline asv run of HEAD; with BASE also asv's kernel times of BASE, for a
#                                         regression gate of the same call
#   tools/h200_check.sh all               verify, then asv, in one call (no BASE)
# Logs land in results/latest/; $OUT gets results.tgz (results/latest and results/asv) and the A/B's table. On a
# machine without network access it expects .whl/ with the asv and invoke wheels (for the machine's Python) and
# .gitcarry/repo.bundle (`git bundle create .gitcarry/repo.bundle HEAD main`) to restore the history that asv records
# commits from. MM_PREBUILT=1 uses the matmul_opt/libmatmul.so that came with the tree (built on another machine from
# the same commit) instead of building.
set -uo pipefail
MODE=${1:-verify}
BASE=${2:-}
OUT=${OUT:-/tmp/h200-out}
R=results/latest
mkdir -p "$OUT" $R
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; nvcc --version | tail -1
  echo "commit $(git rev-parse HEAD)"; date -u; } 2>&1 | tee $R/environment-$MODE.txt
if [ "${MM_PREBUILT:-0}" = 1 ] && [ -f matmul_opt/libmatmul.so ]; then
    echo "[build: skipped, MM_PREBUILT=1 and matmul_opt/libmatmul.so came with the tree]"
else
    step build bash -c "make -j16 > $OUT/build.log 2>&1 || { tail -40 $OUT/build.log; exit 1; }" || exit 1
fi
if [ -n "$BASE" ]; then  # the library at BASE, built from its own tree
    step build-base bash -c "rm -rf /tmp/base && git worktree add -f -q /tmp/base $BASE && make -C /tmp/base -j16 > $OUT/build-base.log 2>&1"
fi
if [ "$MODE" = verify ] || [ "$MODE" = all ]; then
    step pytest bash -c "python3 -m pytest tests -q -rfEs --durations=15 -p no:cacheprovider > $R/pytest-h200.log 2>&1; grep -E '^(FAILED|ERROR)' $R/pytest-h200.log; tail -1 $R/pytest-h200.log"
    step sanitize bash -c "python3 -m tools.sanitize > $R/sanitize-summary.log 2>&1; tail -6 $R/sanitize-summary.log"
    if [ -n "$BASE" ]; then
        step ab bash -c "python3 -m tools.ab_compare /tmp/base/matmul_opt/libmatmul.so matmul_opt/libmatmul.so --rounds 3 --json $OUT/ab.json > $OUT/ab.txt; tail -2 $OUT/ab.txt"
    fi
    step paired bash -c "python3 -m tools.paired_ratio 30 > $R/paired-h200.txt 2>&1; cat $R/paired-h200.txt"
    step report bash -c "python3 -m matmul_opt --sizes 512 1024 1536 2048 3072 4096 8192 4095x4097x4093 8192x8192x512 256x256x65536 1025x1023x1021 --sustained-sizes 4096 8192 --grid --json $R/report-h200.json 2>/dev/null > $R/report-h200.txt; tail -40 $R/report-h200.txt"
    step tune bash -c "python3 -m matmul_opt.tune --json $R/tune-h200.json > $R/tune-h200.txt 2>&1; tail -14 $R/tune-h200.txt"
    step leaks bash -c "python3 -m tools.leak_check > $R/leak-check.log 2>&1; tail -5 $R/leak-check.log"
    step end-to-end bash -c "python3 -m tools.end_to_end > $R/end-to-end.txt 2>&1; cat $R/end-to-end.txt"
fi
if [ "$MODE" = asv ] || [ "$MODE" = all ]; then
    step asv bash -c "invoke asv > $R/asv-run.log 2>&1; tail -3 $R/asv-run.log"
    if [ -n "$BASE" ]; then  # BASE's kernel times in the same call, recorded under BASE's commit
        step asv-base bash -c "cd /tmp/base && PYTHONPATH=/tmp/base:/tmp/site python3 -m asv run --python=same \
            --set-commit-hash=$(git rev-parse $BASE) --machine nvidia-h200 --bench track_kernel_ms > $OUT/asv-base.log 2>&1; \
            cp results/asv/nvidia-h200/$(git rev-parse --short=8 $BASE)-*.json $PWD/results/asv/nvidia-h200/; tail -3 $OUT/asv-base.log"
    fi
fi
tar czf "$OUT/results.tgz" results/latest results/asv
