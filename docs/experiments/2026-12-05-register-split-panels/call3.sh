#!/usr/bin/env bash
# Device calls 4 and 5 of this record (call 3 was refused a machine): call2.sh's measurements without the
# sanitizers, and the table's commit with its asv results: `call3.sh CALL`. Run from the checkout with
# .gitcarry/s12 (call2.sh's), .gitcarry/repo.bundle (`git bundle create .gitcarry/repo.bundle HEAD main`) and
# .whl (asv's wheels) carried. The tuner rewrites precision_table.h and results/latest/tune-h200.json; both are
# committed here under fixed metadata (table_commit.sh), a commit that the same two files reproduce bit for bit on the developer's machine,
# so that asv records the grid suite under the hash that lands (under the machine named after this GPU's model).
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
    --other-gpu --json results/latest/tune-h200.json --write > $OUT/tune-2.txt 2> $OUT/tune-2.err
cp cuda/kernels/precision_table.h results/latest/tune-h200.json $OUT/
grep "inline constexpr" $OUT/precision_table.h
step rebuild compile_objects cuda/kernels/by_precision.cu
step link link_library
source $D/table_commit.sh
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
git add cuda/kernels/precision_table.h results/latest/tune-h200.json && table_commit "$GPU" "$1"
git rev-parse HEAD > $OUT/head.txt
cat $OUT/head.txt
step tests timeout 120 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_precision.py \
    tests/test_gpu_register_split.py tests/test_tune.py > $OUT/tests.log 2>&1
tail -15 $OUT/tests.log
step tests-kernels timeout 120 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_kernels.py \
    -k "register_split or best_fp32_accurate" > $OUT/tests-kernels.log 2>&1
tail -1 $OUT/tests-kernels.log
G="--grid --kernels best_fp32_accurate,cublas,best_tf32,cublas_tf32 --draws 0"
step grid-new timeout 100 python3 $D/panels.py $G --json $OUT/grid-new.json > $OUT/grid-new.txt 2>&1
step grid-main env MATMUL_OPT_LIBRARY=/tmp/lib_main.so PYTHONPATH=/tmp/main_py:$PYTHONPATH timeout 100 \
    python3 $D/panels.py $G --json $OUT/grid-main.json > $OUT/grid-main.txt 2>&1
step panels-new timeout 60 python3 $D/panels.py --draws 0 --json $OUT/panels-new.json > $OUT/panels-new.txt 2>&1
M=$(python3 -m benchmarks.machine)
if [ -n "$M" ]; then
    step asv timeout 300 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M \
        --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv.log 2>&1
    tail -3 $OUT/asv.log
    tar czf $OUT/asv.tgz results/asv
fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv >> $OUT/gpu.txt
