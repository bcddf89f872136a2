#!/usr/bin/env bash
# wgmma_3xtf32's checks on the H200, in one device call: a smoke product, its GPU tests, the probe on the
# library and on each variant of build_variants.sh (carried as .variants/variants.tar.xz). Logs go to $OUT.
set -uo pipefail
OUT=${OUT:-/tmp/out}
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
HERE=docs/experiments/2026-12-01-wgmma-3xtf32
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader | tee $OUT/environment.txt
timeout 60 python3 -c "
import numpy as np, matmul_opt
from matmul_opt.accuracy import relative_error
rng = np.random.default_rng(0)
for M, N, K in [(128, 128, 32), (256, 256, 256), (300, 257, 129), (1024, 1024, 1024)]:
    A, B = rng.uniform(-1, 1, (M, K)).astype(np.float32), rng.uniform(-1, 1, (K, N)).astype(np.float32)
    ref = A.astype(np.float64) @ B.astype(np.float64)
    print(M, N, K, {k: f'{relative_error(matmul_opt.run(k, A, B), ref):.2e}' for k in ('wgmma_3xtf32', 'cublas')})
" 2>&1 | tee $OUT/smoke.txt
timeout 240 python3 -m pytest tests -q -rfEs -p no:cacheprovider -k "wgmma_3xtf32 or sass or registry or fp32_tensor" \
    > $OUT/pytest.log 2>&1; echo "pytest rc=$?"; grep -E "^(FAILED|ERROR)" $OUT/pytest.log | head -30; tail -1 $OUT/pytest.log
timeout 150 python3 $HERE/probe_3xtf32.py --label ${LABEL:-library} > $OUT/probe-library.txt 2>&1; echo "probe rc=$?"
cat $OUT/probe-library.txt
if [ -f .variants/variants.tar.xz ]; then
    tar xJf .variants/variants.tar.xz -C .variants
    for v in ${VARIANTS:-promote-2 promote-4 pass-8 4xtf32}; do
        MATMUL_OPT_LIBRARY=.variants/$v/libmatmul.so timeout 90 python3 $HERE/probe_3xtf32.py --compare cublas \
            --label $v > $OUT/probe-$v.txt 2>&1; echo "$v rc=$?"
    done
    for v in ${VARIANTS:-promote-2 promote-4 pass-8 4xtf32}; do grep -v "^== NaN" $OUT/probe-$v.txt; done
fi
