#!/usr/bin/env bash
# Device call 1: the tuner (with its precision and accuracy sweeps) writes best_table.h and precision_table.h; best
# and the dispatchers are rebuilt and the library relinked (the other objects come built from this machine's nvcc
# 13.0, in build/); the tables are committed here on a branch `tuned` and sent back as a bundle. Then the report:
# the dispatchers beside the kernels they choose among and cuBLAS fp32 and TF32, the accuracy tables, the cubes
# rested and sustained, and the shape grid; then the whole test suite. Logs in logs/ and results/latest/.
export OUT=${OUT:-/tmp/out}
R=results/latest
D=docs/experiments/2026-12-02-precision-dispatch
source tools/device_env.sh
step link link_library
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $D/logs/call1-environment.txt
step tune bash -c "timeout 150 python3 -m matmul_opt.tune --json $R/tune-h200.json --write > $R/tune-h200.txt 2>/dev/null; cat cuda/kernels/precision_table.h | grep constexpr; grep -E '^precision' $R/tune-h200.txt"
step rebuild compile_objects cuda/kernels/best.cu cuda/kernels/by_precision.cu
step relink link_library
git checkout -q -B tuned
git -c user.name=matmul-opt -c user.email=matmul-opt@localhost commit -q -m "best's and the dispatchers' tables from the tuner's run on the H200 (results/latest/tune-h200.json)" cuda/kernels/best_table.h cuda/kernels/precision_table.h $R/tune-h200.json $R/tune-h200.txt
git bundle create $OUT/tuned.bundle tuned ^HEAD~1 2>&1 | tail -1
echo "tuned commit $(git rev-parse HEAD)" >> $D/logs/call1-environment.txt
git diff HEAD~1 --stat
step report bash -c "timeout 220 python3 -m matmul_opt --kernels best_fp32_accurate best_tf32 best cublas cublas_tf32 wgmma_tf32 wgmma_3xtf32 --sizes 2048 4096 8192 --sustained-sizes 8192 --sustained-seconds 3 --rest 0.2 --grid best best_tf32 best_fp32_accurate cublas_tf32 wgmma_tf32 wgmma_3xtf32 --json $D/logs/call1-report.json > $D/logs/call1-report.txt 2>/dev/null; grep -E '^Accuracy|geometric' $D/logs/call1-report.txt"
tar czf $OUT/logs.tgz $D/logs $R
step pytest bash -c "timeout 200 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $D/logs/call1-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $D/logs/call1-pytest.log | head -20; tail -1 $D/logs/call1-pytest.log"
tar czf $OUT/logs.tgz $D/logs $R
