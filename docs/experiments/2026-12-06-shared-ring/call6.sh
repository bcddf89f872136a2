#!/usr/bin/env bash
# Device call 6 of this record, from main at b63a414 with its library carried as .gitcarry/s25/lib_main.so.xz: the
# whole GPU tier (call 5 ran only the longk, precision and dispatcher tests with b63fe5c's library, whose kernels
# this one shares).
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
    .gitcarry/s25/lib_main.so.xz matmul_opt/libmatmul.so
step tests timeout 170 python3 -m pytest -q -rfEs -p no:cacheprovider -m gpu tests > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log | head -20; tail -1 $OUT/tests.log
