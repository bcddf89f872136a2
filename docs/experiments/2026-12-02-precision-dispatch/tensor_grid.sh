#!/usr/bin/env bash
# The tensor-core kernels over the shape grid beside best, cuBLAS fp32 and cuBLAS TF32, with the accuracy tables
# over K (both input kinds) and the cubes rested and sustained: the data for issue 33's dispatchers. Writes logs/
# here and an archive of them to $OUT.
D=docs/experiments/2026-12-02-precision-dispatch
mkdir -p $D/logs
timeout 170 python3 -m matmul_opt --kernels best cublas cublas_tf32 wgmma_tf32 wgmma_3xtf32 --sizes 2048 4096 8192 \
    --sustained-sizes 8192 --sustained-seconds 3 --rest 0.2 --grid best wgmma_tf32 wgmma_3xtf32 cublas_tf32 \
    --json $D/logs/call0-tensor-grid.json > $D/logs/call0-tensor-grid.txt 2>/dev/null
echo "report rc=$?"; grep -E "^Accuracy|geometric" $D/logs/call0-tensor-grid.txt
tar czf ${OUT:-/tmp/out}/tensor-grid.tgz $D/logs
