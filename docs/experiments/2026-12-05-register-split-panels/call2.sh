#!/usr/bin/env bash
# Device calls 2 and 3 of this record: run from the checkout with .gitcarry/s12/build.tgz (this tree's objects,
# built here) and .gitcarry/s12/lib_main.so.gz (main's library) with main_py.tgz (main's matmul_opt, which that
# library's exports fit) carried. Logs go into $OUT/logs.tgz. The tuner's precision sweep and two fresh draws of its
# accuracy sweep on this GPU (--other-gpu where it is not the saved timings' model), which rewrite
# precision_table.h; best_fp32_accurate rebuilt from it; the GPU tests of the dispatch and the register split;
# best_fp32_accurate and cuBLAS fp32 on the grid and the held-out grid with main's library and with this one;
# panels.py; compute-sanitizer's four tools over the register split and the dispatcher.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
source tools/device_env.sh
D=docs/experiments/2026-12-05-register-split-panels
tar xzf .gitcarry/s12/build.tgz
gunzip -c .gitcarry/s12/lib_main.so.gz > /tmp/lib_main.so
mkdir -p /tmp/main_py && tar xzf .gitcarry/s12/main_py.tgz -C /tmp/main_py
link_library
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
python3 -c "
import json; d = json.load(open('results/latest/tune-h200.json')); d['accuracy'] = []
json.dump(d, open('/tmp/tune-in.json', 'w'))"
step tune timeout 200 python3 -m matmul_opt.tune --from-json /tmp/tune-in.json --remeasure precision,accuracy \
    --other-gpu --json /tmp/tune-1.json > $OUT/tune-1.txt 2> $OUT/tune-1.err
step tune-draw2 timeout 60 python3 -m matmul_opt.tune --from-json /tmp/tune-1.json --remeasure accuracy \
    --other-gpu --json $OUT/tune-h200.json --write > $OUT/tune-2.txt 2> $OUT/tune-2.err
cp cuda/kernels/precision_table.h $OUT/
grep "inline constexpr" $OUT/precision_table.h
step rebuild compile_objects cuda/kernels/by_precision.cu
step link link_library
step tests timeout 120 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_precision.py \
    tests/test_gpu_register_split.py > $OUT/tests.log 2>&1
tail -15 $OUT/tests.log
step tests-kernels timeout 120 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_kernels.py \
    -k "register_split or best_fp32_accurate" > $OUT/tests-kernels.log 2>&1
tail -1 $OUT/tests-kernels.log
G="--grid --kernels best_fp32_accurate,cublas --draws 0"
step grid-new timeout 100 python3 $D/panels.py $G --json $OUT/grid-new.json > $OUT/grid-new.txt 2>&1
step grid-main env MATMUL_OPT_LIBRARY=/tmp/lib_main.so PYTHONPATH=/tmp/main_py:$PYTHONPATH timeout 100 \
    python3 $D/panels.py $G \
    --json $OUT/grid-main.json > $OUT/grid-main.txt 2>&1
step panels-new timeout 60 python3 $D/panels.py --draws 0 --json $OUT/panels-new.json > $OUT/panels-new.txt 2>&1
mkdir -p $OUT/sanitizer
step sanitize timeout 170 python3 -m tools.sanitize --tools memcheck,racecheck,initcheck,synccheck \
    --kernels wgmma_3xtf32_register_split,best_fp32_accurate --jobs 8 --timeout 160 > $OUT/sanitize.txt 2>&1
cp results/latest/sanitizer-*.log $OUT/sanitizer/ 2>/dev/null
tail -4 $OUT/sanitize.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv >> $OUT/gpu.txt
