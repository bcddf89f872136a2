#!/usr/bin/env bash
# Device call 3 of this record, from main with .gitcarry/s27/lib_main.so.xz (0c116bb) and lib_new.so.xz (this
# record's library) carried: the one shape asv's gate found slower in call 2 (best at 129x4097x2000, 1.96x, in a run
# where cuBLAS's own times moved by up to 1.6x), and 1x1x1000000, in alternating processes, 3 rounds per library.
export OUT=${OUT:-/tmp/out}
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
for lib in main new; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        .gitcarry/s27/lib_$lib.so.xz /tmp/lib_$lib.so
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
for round in 1 2 3; do
    for lib in main new; do
        echo "== $lib round $round"
        MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so timeout 60 python3 docs/experiments/2026-12-06-write-streams/ab.py \
            --shapes 129x4097x2000,1x1x1000000 --kernels best,cublas --rounds 2 --repetitions 20 | tail -2
    done
done 2>&1 | tee $OUT/call3.log
