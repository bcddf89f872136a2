#!/usr/bin/env bash
# Device call 1 of the integration record, run from main's checkout with .gitcarry/s8 carried: next.tgz (`git
# archive next | gzip`) and lib_next.so.gz (its library, built here, gzipped). Correctness of everything the branch
# merges: the whole test suite on next's library; beside it compute-sanitizer's four tools over the kernels the
# merged branches change (ozaki_int8, splitk, wgmma_tf32, wgmma_3xtf32_register_split) and memcheck over best,
# whose driver forces every tile at 3 slices; memcheck and initcheck over ozaki_int8's seven-moduli products; then
# ozaki_int8 on rescaled operands (the ozaki-guard record's rescaled.py). Nothing here is timed.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-05-integration
S=docs/experiments/2026-12-05-ozaki-seven-moduli
G=docs/experiments/2026-12-04-ozaki-guard
mkdir -p /tmp/nx && tar xzf .gitcarry/s8/next.tgz -C /tmp/nx
gunzip -c .gitcarry/s8/lib_next.so.gz > /tmp/nx/matmul_opt/libmatmul.so
cd /tmp/nx
L=$PWD/$D/logs; mkdir -p $L
source tools/device_env.sh
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $L/call1-environment.txt
save() { mkdir -p $L/sanitizer && cp results/latest/sanitizer-*.log $L/sanitizer/ 2>/dev/null
    tar czf $OUT/logs.tgz $D/logs; }
(timeout 430 python3 -m tools.sanitize --tools memcheck,racecheck,initcheck,synccheck \
    --kernels ozaki_int8,splitk,wgmma_tf32,wgmma_3xtf32_register_split --jobs 8 --timeout 420 > $L/call1-sanitize.txt 2>&1
 timeout 110 python3 -m tools.sanitize --tools memcheck --kernels best --timeout 100 >> $L/call1-sanitize.txt 2>&1) &
(for tool in memcheck initcheck; do
    timeout 200 compute-sanitizer --tool $tool python3 $S/seven_products.py > $L/call1-seven-$tool.txt 2>&1
    echo "[$tool: rc=$?]" >> $L/call1-seven-$tool.txt
 done) &
step tests timeout 420 python3 -m pytest tests -q -rfEs -p no:cacheprovider --durations=10 > $L/call1-pytest.log 2>&1
grep -E '^(FAILED|ERROR)' $L/call1-pytest.log | head -30; tail -1 $L/call1-pytest.log
save
step rescaled timeout 60 python3 $G/rescaled.py > $L/call1-rescaled.txt 2>&1
cat $L/call1-rescaled.txt
step sanitizers wait
grep "==\|clean\|did not" $L/call1-sanitize.txt | tail -20; tail -2 $L/call1-seven-*.txt
save
