#!/usr/bin/env bash
# Device call 6 of this record: run from the checkout (at the table's commit, 884adeba) with .gitcarry/s12
# (lib_new.so.gz, this commit's library built here; lib_main.so.gz and main_py.tgz, main's), .gitcarry/repo.bundle and
# .whl carried. best_fp32_accurate and cuBLAS fp32 on the asv kernels suite's shapes with this library and with
# main's, then asv's grid suite at main's head (bd7ef29) on this machine, the base that the table commit's grid
# results (call 5) are gated against on the same GPU model.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
source tools/device_env.sh
D=docs/experiments/2026-12-05-register-split-panels
cp $D/panels.py /tmp/panels.py
gunzip -c .gitcarry/s12/lib_new.so.gz > matmul_opt/libmatmul.so
gunzip -c .gitcarry/s12/lib_main.so.gz > /tmp/lib_main.so
mkdir -p /tmp/main_py && tar xzf .gitcarry/s12/main_py.tgz -C /tmp/main_py
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
C="--cubes --kernels best_fp32_accurate,cublas --draws 0"
step cubes-new timeout 100 python3 /tmp/panels.py $C --json $OUT/cubes-new.json > $OUT/cubes-new.txt 2>&1
step cubes-main env MATMUL_OPT_LIBRARY=/tmp/lib_main.so PYTHONPATH=/tmp/main_py:$PYTHONPATH timeout 100 \
    python3 /tmp/panels.py $C --json $OUT/cubes-main.json > $OUT/cubes-main.txt 2>&1
git checkout -q -f bd7ef29 && cp /tmp/lib_main.so matmul_opt/libmatmul.so
M=$(python3 -m benchmarks.machine)
step asv-main timeout 300 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M \
    --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv.log 2>&1
tail -3 $OUT/asv.log
tar czf $OUT/asv.tgz results/asv
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv >> $OUT/gpu.txt
