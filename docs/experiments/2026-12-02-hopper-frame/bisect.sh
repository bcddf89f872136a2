#!/usr/bin/env bash
# Whether a source's wgmma kernels keep their machine code: builds the cubin of cuda/kernels/NAME_sm90a.cu at REV
# and in the working tree (or of a variant file given as the third argument) and compares them kernel by kernel
# with tools/cubin_compare.py. No GPU needed.
#   bash docs/experiments/2026-12-02-hopper-frame/bisect.sh REV wgmma_3xtf32 [variant.cu]
set -euo pipefail
REV=$1 NAME=$2 SOURCE=${3:-cuda/kernels/${2}_sm90a.cu}
work=$(mktemp -d)
build() { nvcc -O3 -std=c++20 --default-stream per-thread -Xcompiler -fPIC -Icuda -gencode arch=compute_90a,code=sm_90a \
    -cubin "$1" -o "$2"; }
git show "$REV:cuda/kernels/${NAME}_sm90a.cu" > "cuda/kernels/_${NAME}_at_rev_sm90a.cu"
trap 'rm -f "cuda/kernels/_${NAME}_at_rev_sm90a.cu"; rm -rf "$work"' EXIT
build "cuda/kernels/_${NAME}_at_rev_sm90a.cu" "$work/before.cubin"
build "$SOURCE" "$work/after.cubin"
python3 -m tools.cubin_compare "$work/before.cubin" "$work/after.cubin" | head -1
