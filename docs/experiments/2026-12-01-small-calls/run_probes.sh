#!/usr/bin/env bash
# What the device call of this record ran, from the repository root: the C step probe, then the Python probe of the
# package before (.variants/before, the tree of dfbc66f with its library) and after this work, alternating, three
# rounds; logs to $OUT.
set -u
D=docs/experiments/2026-12-01-small-calls
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv > $OUT/environment.txt
LD_LIBRARY_PATH=matmul_opt $D/step_probe > $OUT/step-probe.txt 2>&1
python3 $D/small_call_probe.py . --parts > $OUT/parts.txt 2>&1
for round in 1 2 3; do
    for tree in .variants/before .; do
        python3 $D/small_call_probe.py $tree >> $OUT/small-calls.txt 2>&1
    done
done
LD_LIBRARY_PATH=matmul_opt $D/step_probe > $OUT/step-probe-2.txt 2>&1
python3 -m pytest tests/test_gpu_arrays.py tests/test_gpu_host_path.py tests/test_cpu_api.py tests/test_cpu_device_arrays.py -q -x -p no:cacheprovider > $OUT/pytest-gpu-arrays.txt 2>&1
tail -3 $OUT/pytest-gpu-arrays.txt
