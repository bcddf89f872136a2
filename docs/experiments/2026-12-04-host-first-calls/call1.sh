#!/usr/bin/env bash
# Device call: first launches (lazy against eager module loading), the NumPy patterns' phases under three result
# policies, and tools.host_patterns with lazy and eager loading.
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-host-first-calls
L=$OUT/logs; mkdir -p $L
for mode in default EAGER; do
    if [ $mode = EAGER ]; then export CUDA_MODULE_LOADING=EAGER; else unset CUDA_MODULE_LOADING; fi
    timeout 120 python3 $D/first_launch.py > $L/first-launch-$mode.txt 2>&1
done
unset CUDA_MODULE_LOADING
for n in 1024 4096; do
    for pattern in reassign keep chain alternate; do
        policies="library pageable populated"; [ $n = 4096 ] && policies=library
        for policy in $policies; do
            for t in "" --torch; do
                echo "$n $pattern $policy ${t:-fresh} $(timeout 120 python3 $D/phases.py $pattern $n --policy $policy $t 2>&1 | tail -1)"
            done
        done
    done
done > $L/phases.txt
for mode in default EAGER; do
    if [ $mode = EAGER ]; then export CUDA_MODULE_LOADING=EAGER; else unset CUDA_MODULE_LOADING; fi
    timeout 400 python3 -m tools.host_patterns --sizes 1024 4096 > $L/host-patterns-$mode.txt 2>&1
done
head -50 $L/*.txt
