#!/usr/bin/env bash
# Device call 11 of this record (branch edges-hook; not yet run): run from the checkout with
# .gitcarry/s16/lib_hook.so.gz (the branch's library, with mm_best_edges_beside) carried. The hook's GPU tests, and
# sweep.py: where a cut's edges gain or lose beside the bulk, over about 125 products with a ragged row or column.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
gunzip -c .gitcarry/s16/lib_hook.so.gz > matmul_opt/libmatmul.so
timeout 100 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_shape_grid.py -k "beside or cut" \
    > $OUT/tests.log 2>&1
tail -3 $OUT/tests.log
timeout 420 python3 docs/experiments/2026-12-06-edges-beside/sweep.py 2>&1 | tee $OUT/sweep.txt | grep yes
