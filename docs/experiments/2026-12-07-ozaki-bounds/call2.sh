#!/usr/bin/env bash
# Device call 2 of this record, on call 1's machine while it was still held, from branch ozaki-bounds with call 1's
# tables in the working tree (precision_table.h and results/latest/tune-h200.json from its logs) and
# .gitcarry/s13/build.tar.xz: by_precision.cu rebuilt against the new table in this shell (call 1 rebuilt it in a
# `bash -c`, which does not see device_env.sh's functions, so its tests ran the old table's library), the library
# linked, and the fp32-accurate class's and the tuner's GPU tests.
source tools/device_env.sh >/dev/null 2>&1; mkdir -p $OUT
tar xJf .gitcarry/s13/build.tar.xz && compile_objects cuda/kernels/by_precision.cu && link_library \
    && timeout 60 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_precision.py tests/test_gpu_ozaki.py \
    tests/test_tune.py -k "fp32_accurate or by_precision or precision or tune" > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log; tail -1 $OUT/tests.log; nvidia-smi --query-gpu=name --format=csv,noheader
