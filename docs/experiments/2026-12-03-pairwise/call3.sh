#!/usr/bin/env bash
# Device call 3: best's panel rule for C with a long side at least 4 times the short one, A/B against the library
# with the previous best object (carried in ab/oldbest) on small C of no short side (the shapes that changed, none of
# them tuned to) and on the grid's panels (which must not change), 3 rounds of alternating processes beside cuBLAS
# (speed.py); then the whole test suite (GPU tier included) at this commit.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-pairwise
R=results/latest
mkdir -p $D/logs
source tools/device_env.sh >/dev/null 2>&1
step link link_library
link_old() {
    rm -rf /tmp/build-old && cp -r build /tmp/build-old && cp ab/oldbest/best.o /tmp/build-old/kernels/best.o &&
    nvcc -gencode 'arch=compute_90,code=[sm_90,compute_90]' -shared -o /tmp/lib-old.so \
        $(find /tmp/build-old/api /tmp/build-old/core /tmp/build-old/kernels -name '*.o' | sort) -ldl
}
step link-old link_old
SHAPES="4096x64x4096 200x300x1000 256x256x16 256x256x256 256x256x1024 256x256x4096 65x65x65 128x128x128 200x200x2000 100x150x500 300x250x3000 240x256x8000 180x200x700 250x1500x3000 129x4097x2000 257x3072x1024 128x4096x4096 385x769x1537"
for round in 1 2 3; do
    for v in old new; do
        lib=$PWD/matmul_opt/libmatmul.so; [ $v = old ] && lib=/tmp/lib-old.so
        MATMUL_OPT_LIBRARY=$lib timeout 60 python3 $D/speed.py $v best,best_fp32_accurate,cublas $SHAPES >> $D/logs/call3-ab.jsonl 2>> $D/logs/call3-ab.err
        echo "round $round $v rc=$?"
    done
done
python3 - $D/logs/call3-ab.jsonl > $D/logs/call3-ab.txt <<'PY'
import json, statistics as st, sys
from collections import defaultdict
d = defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    d[(r["shape"], r["label"], r["kernel"])].append(r["ms"])
shapes = list(dict.fromkeys(s for s, _, _ in d))
worst = 0
print(f"{'shape':<16}{'old best us':>12}{'new best us':>12}{'new/old':>9}{'cublas us':>11}{'new vs cublas':>14}{'old range':>22}{'new range':>22}")
for s in shapes:
    old, new = d[(s, "old", "best")], d[(s, "new", "best")]
    cub = st.median(d[(s, "old", "cublas")] + d[(s, "new", "cublas")])
    ratio = st.median(new) / st.median(old)
    if min(new) > max(old):
        worst = max(worst, ratio)
    print(f"{s:<16}{st.median(old)*1e3:12.1f}{st.median(new)*1e3:12.1f}{ratio:9.3f}{cub*1e3:11.1f}{cub/st.median(new):14.2f}"
          f"{f'{min(old)*1e3:.1f}-{max(old)*1e3:.1f}':>22}{f'{min(new)*1e3:.1f}-{max(new)*1e3:.1f}':>22}")
print("verdict:", "regression" if worst > 1.05 else "keep", f"(worst separated slowdown {worst:.3f})")
PY
cat $D/logs/call3-ab.txt
tar czf $OUT/logs.tgz $D/logs
git rev-parse HEAD > $D/logs/call3-commit.txt
step suite bash -c "timeout 330 python3 -m pytest -q -p no:cacheprovider tests > $D/logs/call3-suite.log 2>&1; tail -15 $D/logs/call3-suite.log"
tar czf $OUT/logs.tgz $D/logs
