#!/usr/bin/env bash
# Device call 9 (two machine calls on one warm machine): the three branches prepared without a GPU, each in its own
# tree (.gitcarry/s1/BRANCH.tgz: `git archive BRANCH -- . ':!results'`) with its library, running its own script.
# Part `refill`: branch refill-in-loop, small-tiles call7.sh. Part `rest`: branch line-rows, small-tiles call8.sh;
# branch mid-spare, huge-pages call6.sh (with main's package as the 'before', .gitcarry/s1/before.tgz).
export OUT=${OUT:-/tmp/out}
S=$PWD/.gitcarry/s1
source tools/device_env.sh
tree() {  # BRANCH LIBRARY: the branch's tree in /tmp/BRANCH with main's library beside its own
    mkdir -p /tmp/$1/.gitcarry && tar xzf $S/$1.tgz -C /tmp/$1 && cp $S/lib_main.so.gz $S/before.tgz /tmp/$1/.gitcarry/ &&
        gunzip -c $S/$2 > /tmp/$1/matmul_opt/libmatmul.so
}
case $1 in
refill)
    tree refill-in-loop lib_refill.so.gz
    step refill bash -c "cd /tmp/refill-in-loop && OUT=/tmp/out-refill timeout 560 bash docs/experiments/2026-12-04-small-tiles/call7.sh 2>&1 | tail -30"
    tar czf $OUT/refill-logs.tgz -C /tmp/refill-in-loop docs/experiments/2026-12-04-small-tiles/logs ;;
rest)
    tree line-rows lib_line.so.gz
    step lines bash -c "cd /tmp/line-rows && OUT=/tmp/out-lines timeout 330 bash docs/experiments/2026-12-04-small-tiles/call8.sh 2>&1 | tail -30"
    tar czf $OUT/lines-logs.tgz -C /tmp/line-rows docs/experiments/2026-12-04-small-tiles/logs
    tree mid-spare lib_main.so.gz
    step mid-spare bash -c "cd /tmp/mid-spare && OUT=/tmp/out-mid timeout 230 bash docs/experiments/2026-12-04-huge-pages/call6.sh 2>&1 | tail -40"
    tar czf $OUT/mid-logs.tgz -C /tmp/mid-spare docs/experiments/2026-12-04-huge-pages/logs ;;
esac
