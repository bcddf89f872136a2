#!/bin/bash
# Builds probe: the split-K reduction of BEFORE (a git revision, default HEAD~1) and of the working tree, each
# renamed, with the core files they call. Run from the repository root; writes $1 (default /tmp/reduce_probe).
set -euo pipefail
out=${1:-/tmp/reduce_probe}
before=${BEFORE:-HEAD~1}
dir=$(mktemp -d)
git show "$before:cuda/core/epilogue/split_k_reduce.cu" > "$dir/before.cu"
flags="-O3 -std=c++20 -Icuda -gencode arch=compute_90,code=sm_90 --default-stream per-thread"
nvcc $flags -Dlaunch_split_k_reduce=reduce_before -c "$dir/before.cu" -o "$dir/before.o"
nvcc $flags -Dlaunch_split_k_reduce=reduce_after -c cuda/core/epilogue/split_k_reduce.cu -o "$dir/after.o"
for f in launch module_loading status; do nvcc $flags -c cuda/core/$f.cu -o "$dir/$f.o"; done
nvcc $flags docs/experiments/2026-12-04-reduce-batches/probe.cu "$dir"/*.o -o "$out" -ldl
