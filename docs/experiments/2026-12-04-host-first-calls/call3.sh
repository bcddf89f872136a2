#!/usr/bin/env bash
# Device call 3: the module loader against CUDA's lazy loading (CUDA_MODULE_LOADING=LAZY, which the loader honours)
# in alternating processes on one machine: first launches on GPU arrays, then tools.host_patterns, two rounds each;
# then asv's host-pattern and end-to-end suites at this commit (results/asv).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-host-first-calls
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $L/call3-environment.txt
save() { tar czf $OUT/logs.tgz $L results/asv; }
for mode in loader LAZY; do
    if [ $mode = LAZY ]; then export CUDA_MODULE_LOADING=LAZY; else unset CUDA_MODULE_LOADING; fi
    step first-launch-$mode bash -c "timeout 60 python3 $D/first_launch.py > $L/call3-first-launch-$mode.txt 2>&1; grep -v '^{' $L/call3-first-launch-$mode.txt"
done
for round in 1 2; do
    for mode in loader LAZY; do
        if [ $mode = LAZY ]; then export CUDA_MODULE_LOADING=LAZY; else unset CUDA_MODULE_LOADING; fi
        step patterns-$mode-$round bash -c "timeout 120 python3 -m tools.host_patterns --sizes 1024 4096 > $L/call3-patterns-$mode-$round.txt 2>&1; cat $L/call3-patterns-$mode-$round.txt"
        save
    done
done
unset CUDA_MODULE_LOADING
M=$(python3 -m benchmarks.machine)
step asv bash -c "timeout 230 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M --bench 'bench_host_patterns|bench_end_to_end' > $L/call3-asv.log 2>&1; tail -5 $L/call3-asv.log"
save
