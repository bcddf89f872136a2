#!/usr/bin/env bash
# Whether the spread of small-call costs between processes follows the CPU a process runs on: the topology, then
# small_call_probe.py of this tree pinned to single cores (taskset) and unpinned, alternating; logs to $OUT.
set -u
D=docs/experiments/2026-12-01-small-calls
{ nvidia-smi topo -m; lscpu | grep -iE "model name|numa|^cpu\(s\)|mhz"; taskset -p $$; } > $OUT/topology.txt 2>&1
for round in 1 2; do
    for cpu in 0 3 7 11 15 none; do
        echo "== cpu $cpu" >> $OUT/placement.txt
        if [ $cpu = none ]; then python3 $D/small_call_probe.py . >> $OUT/placement.txt 2>&1
        else taskset -c $cpu python3 $D/small_call_probe.py . >> $OUT/placement.txt 2>&1; fi
    done
done
