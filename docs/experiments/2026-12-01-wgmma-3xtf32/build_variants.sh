#!/usr/bin/env bash
# Variant libraries of wgmma_3xtf32 for the measurements of docs/experiments/2026-12-01-wgmma-3xtf32.md: each is the
# library of the current build/ with wgmma_3xtf32_sm90a.cu recompiled from an edited copy, in
# .variants/NAME/libmatmul.so (select one with MATMUL_OPT_LIBRARY). Run from the repository root after `make`:
#   build_variants.sh NAME...      prints ptxas' resources per variant
# Names:
#   promote-K    kPromoteK = K (promotion every K of K: 8, 16, 32, 64, ...)
#   pass-KT      kPassKTiles = KT (every MMA retired every KT K tiles)
#   4xtf32       the small*small product too, issued first into each chunk
#   skip-a, skip-b  diagnostic, wrong results: A's (B's) split gather skipped
#   kernel-only  diagnostic, wrong results: the split gathers, the flags' memset and the fix-up skipped (the kernel's
#                time alone)
set -euo pipefail
SRC=cuda/kernels/wgmma_3xtf32_sm90a.cu
FLAGS="-O3 -std=c++20 -lineinfo --default-stream per-thread -Xcompiler -fPIC,-fvisibility=hidden -Icuda"
OTHERS=$(find cuda -name '*.cu' ! -name wgmma_3xtf32_sm90a.cu | sort | sed -e 's|^cuda/|build/|' -e 's|\.cu$|.o|')
edit_of() {  # a python expression over the source text `s`
    case $1 in
    promote-*) echo "re.sub(r'kPromoteK = \d+;', 'kPromoteK = ${1#promote-};', s)" ;;
    pass-*) echo "re.sub(r'kPassKTiles = \d+;', 'kPassKTiles = ${1#pass-};', s)" ;;
    4xtf32) echo "re.sub(r'(gemm::wgmma_m64n128k8_tf32\(acc\[kSet\]), (gemm::sw128_k_major_descriptor\(a_small \+ step_bytes\)), bb,\s*(!decltype\(first\)::value \|\| k8 > 0)\);', r'\1, \2, gemm::sw128_k_major_descriptor(b_small + step_bytes), \3);\n\1, \2, bb, true);', s)" ;;
    kernel-only) echo "s.replace('MM_TRY(gemm::launch_tf32_split_gather(', 'if (false) MM_TRY(gemm::launch_tf32_split_gather(').replace(
        'MM_TRY(mm_check_cuda(cudaMemsetAsync(', 'if (false) MM_TRY(mm_check_cuda(cudaMemsetAsync(').replace(
        'return gemm::launch_nonfinite_fixup(g, a_row_flags, b_column_flags, stream);', '(void)b_column_flags; return MM_OK;')" ;;
    skip-a) echo "s.replace('MM_TRY(gemm::launch_tf32_split_gather(g.A,', 'if (false) MM_TRY(gemm::launch_tf32_split_gather(g.A,')" ;;
    skip-b) echo "s.replace('MM_TRY(gemm::launch_tf32_split_gather(g.B,', 'if (false) MM_TRY(gemm::launch_tf32_split_gather(g.B,')" ;;
    *) echo "unknown variant $1" >&2; exit 2 ;;
    esac
}
build_variant() {
    local name=$1 edit dir=.variants/$1
    edit=$(edit_of "$name")
    mkdir -p "$dir"
    python3 -c "import re; s = open('$SRC').read(); t = $edit; assert t != s, 'edit did nothing'; open('$dir/kernel.cu', 'w').write(t)"
    nvcc $FLAGS -gencode arch=compute_90a,code=sm_90a -Xptxas -v -c "$dir/kernel.cu" -o "$dir/kernel.o" 2>&1 |
        grep -E "Used|spill|C75" | sed "s/^/$name: /"
    nvcc -gencode arch=compute_90,code=[sm_90,compute_90] -shared -o "$dir/libmatmul.so" $OTHERS "$dir/kernel.o" -ldl
}
for name in "$@"; do build_variant "$name" & done
wait
