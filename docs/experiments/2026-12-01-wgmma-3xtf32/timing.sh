#!/usr/bin/env bash
# wgmma_3xtf32's time per call against cuBLAS fp32 at the issue's shapes, for the library and each variant library
# carried in .variants/variants.tar.xz (build_variants.sh); then its GPU tests. Output on stdout and in $OUT.
set -uo pipefail
OUT=${OUT:-/tmp/out}
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
[ -f .variants/variants.tar.xz ] && tar xJf .variants/variants.tar.xz -C .variants
for lib in matmul_opt/libmatmul.so $(ls .variants/*/libmatmul.so 2>/dev/null); do
    MATMUL_OPT_LIBRARY=$lib timeout 100 python3 -c "
import sys, matmul_opt
print(sys.argv[1])
for shape in [(2048,) * 3, (4096,) * 3, (8192,) * 3, (4095, 4097, 4093)]:
    r = matmul_opt.benchmark('wgmma_3xtf32', *shape, warmup=5, repetitions=30)
    c = matmul_opt.benchmark('cublas', *shape, warmup=3, repetitions=10)
    print('x'.join(map(str, shape)), f'{r.ms:.4f} ms {r.gflops / 1e3:.1f} TFLOPS  cublas {c.ms:.4f} ({r.gflops / c.gflops:.2f}x)')
" $lib
done 2>&1 | tee $OUT/timing.txt
timeout 200 python3 -m pytest tests -q -rfEs -p no:cacheprovider -k "${TESTS:-wgmma_3xtf32}" > $OUT/pytest.log 2>&1
echo "pytest rc=$?"; grep -E "^(FAILED|ERROR)" $OUT/pytest.log | head -20; tail -1 $OUT/pytest.log
