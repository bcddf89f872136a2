#!/usr/bin/env bash
# Device call 1 of this record: run from the checkout with .gitcarry/s12/lib_main.so.gz (main's library) and
# .gitcarry/s12/lib_new.so.gz (this record's: the register split's K slices at least 256 deep at every width, the
# fp32-accurate class's thresholds per tensor-core kernel, the hook that forces it off the tensor cores) carried.
# panels.py with each library, new first, then main; then the tuner's precision sweep and two draws of its accuracy
# sweep anew with the new library (the saved draws measured the old slices, so they are dropped).
export OUT=${OUT:-/tmp/out}
source tools/device_env.sh
D=docs/experiments/2026-12-05-register-split-panels
gunzip -c .gitcarry/s12/lib_main.so.gz > /tmp/lib_main.so
gunzip -c .gitcarry/s12/lib_new.so.gz > matmul_opt/libmatmul.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
step panels-new timeout 170 python3 $D/panels.py --json $OUT/panels-new.json > $OUT/panels-new.txt 2>&1
step panels-main env MATMUL_OPT_LIBRARY=/tmp/lib_main.so timeout 170 python3 $D/panels.py --draws 1 \
    --json $OUT/panels-main.json > $OUT/panels-main.txt 2>&1
python3 -c "
import json; d = json.load(open('results/latest/tune-h200.json')); d['accuracy'] = []
json.dump(d, open('/tmp/tune-in.json', 'w'))"
step tune timeout 200 python3 -m matmul_opt.tune --from-json /tmp/tune-in.json --remeasure precision,accuracy \
    --json /tmp/tune-1.json > $OUT/tune-1.txt 2> $OUT/tune-1.err
step tune-draw2 timeout 60 python3 -m matmul_opt.tune --from-json /tmp/tune-1.json --remeasure accuracy \
    --json $OUT/tune-h200.json > $OUT/tune-2.txt 2> $OUT/tune-2.err
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv >> $OUT/gpu.txt
tail -45 $OUT/panels-new.txt; tail -12 $OUT/panels-main.txt; tail -45 $OUT/tune-2.txt
