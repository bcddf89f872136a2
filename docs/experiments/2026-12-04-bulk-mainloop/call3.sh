#!/usr/bin/env bash
# Device call 3: Nsight Compute over the skinny bulk mainloop on three grid shapes (where its time goes: pipes,
# shared-memory wavefronts, warp stalls), then asv's grid and Sgemm suites at this commit (the split-K reduction's
# partial batches).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-bulk-mainloop
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; } > $L/call3-environment.txt
save() { tar czf $OUT/logs.tgz $L results/asv; }
step ncu bash -c "timeout 120 ncu --kernel-name regex:skinny_bulk --section SpeedOfLight --section ComputeWorkloadAnalysis \
    --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --section InstructionStats --print-details all \
    python3 docs/experiments/2026-12-03-bytes-bound/profile_best.py best 9000x24x2000 17x8000x8000 11x14336x2500 \
    > $L/call3-ncu.txt 2>&1; echo rc=\$?; grep -cE 'skinny_bulk' $L/call3-ncu.txt"
save
M=$(python3 -m benchmarks.machine)
step asv bash -c "timeout 430 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms|bench_kernels.Sgemm.track_kernel_ms' > $L/call3-asv.log 2>&1; tail -3 $L/call3-asv.log"
save
