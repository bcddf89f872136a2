#!/usr/bin/env bash
# Device call 4: large results that take a freed larger block (results.LARGER_BLOCK_FACTOR) against blocks of their
# own size only, on the alternating pattern at 4096^3 in alternating processes (phases.py); tools.host_patterns at
# 4096^3, twice; the machine's CPU and NUMA layout; the GPU test tier; asv's host-pattern suite at this commit.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-host-first-calls
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u;
  lscpu | grep -iE "model name|^cpu\(s\)|numa|socket|thread"; nvidia-smi topo -m; numactl -H 2>&1 | head -8; } > $L/call4-environment.txt
save() { tar czf $OUT/logs.tgz $L results/asv; }
for round in 1 2 3; do
    for factor in 4 1; do
        for t in "" --torch; do
            echo "factor $factor ${t:-fresh} round $round $(timeout 60 python3 $D/phases.py alternate 4096 --larger-factor $factor $t 2>&1 | tail -1)"
        done
    done
done > $L/call4-larger-blocks.txt
save
for round in 1 2; do
    step patterns-$round bash -c "timeout 90 python3 -m tools.host_patterns --sizes 4096 > $L/call4-patterns-$round.txt 2>&1; cat $L/call4-patterns-$round.txt"
done
save
step tests bash -c "timeout 240 python3 -m pytest tests -q -p no:cacheprovider > $L/call4-tests.log 2>&1; grep -E '^(FAILED|ERROR)' $L/call4-tests.log | head; tail -1 $L/call4-tests.log"
save
M=$(python3 -m benchmarks.machine)
step asv bash -c "timeout 150 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M --bench 'bench_host_patterns' > $L/call4-asv.log 2>&1; tail -22 $L/call4-asv.log"
save
