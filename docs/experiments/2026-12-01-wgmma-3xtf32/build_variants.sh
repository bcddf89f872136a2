#!/usr/bin/env bash
# Variant libraries of wgmma_3xtf32 for the promotion-interval and 4xTF32 measurements: each is the library of the
# current build/ with wgmma_3xtf32_sm90a.cu recompiled from an edited copy, in .variants/NAME/libmatmul.so (select
# one with MATMUL_OPT_LIBRARY). Run from the repository root after `make`; prints ptxas' resources per variant.
#   promote-KT   kPromoteKTiles = KT (promotion every 32 * KT of K)
#   pass-8       kPassKTiles = 8 (every MMA retired every 8 K tiles instead of 4)
#   4xtf32       the default interval plus the small*small product, issued first into the chunk
set -euo pipefail
SRC=cuda/kernels/wgmma_3xtf32_sm90a.cu
FLAGS="-O3 -std=c++20 -lineinfo --default-stream per-thread -Xcompiler -fPIC,-fvisibility=hidden -Icuda"
OTHERS=$(find cuda -name '*.cu' ! -name wgmma_3xtf32_sm90a.cu | sort | sed -e 's|^cuda/|build/|' -e 's|\.cu$|.o|')
build_variant() {  # name, then a python expression over the source text `s`
    local name=$1 edit=$2 dir=.variants/$1
    mkdir -p "$dir"
    python3 -c "import re; s = open('$SRC').read(); t = $edit; assert t != s, 'edit did nothing'; open('$dir/kernel.cu', 'w').write(t)"
    nvcc $FLAGS -gencode arch=compute_90a,code=sm_90a -Xptxas -v -c "$dir/kernel.cu" -o "$dir/kernel.o" 2>&1 |
        grep -E "Used|spill|C75" | sed "s/^/$name: /"
    nvcc -gencode arch=compute_90,code=[sm_90,compute_90] -shared -o "$dir/libmatmul.so" $OTHERS "$dir/kernel.o" -ldl
}
for kt in ${PROMOTE_KTILES:-2 4}; do
    build_variant promote-$kt "re.sub(r'kPromoteKTiles = \d+;', 'kPromoteKTiles = $kt;', s)" &
done
build_variant pass-8 "re.sub(r'kPassKTiles = \d+;', 'kPassKTiles = 8;', s)" &
# small*small first: it overwrites the chunk's set, and small*big accumulates after it.
build_variant 4xtf32 "re.sub(r'(gemm::wgmma_m64n128k8_tf32\(acc\[kSet\]), (gemm::sw128_k_major_descriptor\(a_small \+ step_bytes\)), bb,\s*(!decltype\(first\)::value \|\| k8 > 0)\);',
    r'\1, \2, gemm::sw128_k_major_descriptor(b_small + step_bytes), \3);\n\1, \2, bb, true);', s)" &
wait
