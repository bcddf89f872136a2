#!/usr/bin/env bash
# Device call 4 of the integration record, run from main's checkout with .gitcarry/s8 (next's archive and library),
# .gitcarry/s9 (panel-fold's, which holds next) and this script carried. The fixes of call 1's failures and the
# register split's accuracy sweep: the whole suite on panel-fold's library; beside it next's own tests of the fixes
# (the capture refusal, ozaki, the register split, the precision dispatchers, the torch models) on next's library;
# and the tuner's accuracy sweep anew on the committed timings, whose table gives kRegisterSplitMinK.
export OUT=${OUT:-/tmp/out}
for tree in nx:s8/next.tgz:s8/lib_next.so.gz pf:s9/pf.tgz:s9/lib_pf.so.gz; do
    IFS=: read -r dir archive lib <<< "$tree"
    mkdir -p /tmp/$dir && tar xzf .gitcarry/$archive -C /tmp/$dir
    gunzip -c .gitcarry/$lib > /tmp/$dir/matmul_opt/libmatmul.so
done
cd /tmp/pf && source tools/device_env.sh
L=$OUT; nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $L/call4-environment.txt
(cd /tmp/nx && export PYTHONPATH=/tmp/nx && step fixes timeout 400 python3 -m pytest -q -rfEs -p no:cacheprovider \
    tests/test_gpu_arrays.py tests/test_gpu_ozaki.py tests/test_gpu_register_split.py tests/test_gpu_precision.py \
    tests/test_gpu_torch_models.py > $L/call4-next-fixes.log 2>&1) &
(cd /tmp/pf && step tune timeout 400 python3 -m matmul_opt.tune --from-json results/latest/tune-h200.json \
    --remeasure accuracy --json $L/call4-tune.json > $L/call4-tune.txt 2> $L/call4-tune.err) &
step suite timeout 450 python3 -m pytest tests -q -rfEs -p no:cacheprovider --durations=10 > $L/call4-pf-suite.log 2>&1
grep -E '^(FAILED|ERROR)' $L/call4-pf-suite.log | head -30; tail -1 $L/call4-pf-suite.log
wait
grep -E '^(FAILED|ERROR)' $L/call4-next-fixes.log | head; tail -2 $L/call4-next-fixes.log
grep -n "kRegisterSplitMinK\|kFp32AccurateMinK" $L/call4-tune.txt; tail -3 $L/call4-tune.err
