#!/usr/bin/env bash
# Device call 9 of this record: run from the checkout with .gitcarry/s19/lib_clusters.so.gz carried (the head with
# skinny's streaming mainloops' cluster sums behind mm_split_k_sums_in_launch, as its bulk mainloop's are: call 8's
# switch did not reach them). GPU tests of skinny, split-K and cuts; memcheck, racecheck and synccheck over skinny;
# clusters.py on the sweep's losers and some winners.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
gunzip -c .gitcarry/s19/lib_clusters.so.gz > matmul_opt/libmatmul.so
step tests timeout 120 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_kernels.py \
    tests/test_gpu_shape_grid.py -k "skinny or split or cluster or cut or beside or grid or held_out" \
    > $OUT/tests.log 2>&1
tail -2 $OUT/tests.log
step clusters timeout 150 python3 docs/experiments/2026-12-06-edges-rule/clusters.py 6145x129x5003 3001x129x5003 \
    129x3001x5003 3001x257x5003 257x3001x5003 4097x129x5003 513x4097x5003 513x3001x5003 129x6145x5003 \
    1025x129x5003 2049x129x5003 1153x1153x1153 2049x2047x999 1x1500x9000 > $OUT/clusters.txt 2>&1
cat $OUT/clusters.txt
step sanitize timeout 200 python3 -m tools.sanitize --tools memcheck,racecheck,synccheck --kernels skinny --jobs 3 \
    > $OUT/sanitize.txt 2>&1
tail -4 $OUT/sanitize.txt
