#!/usr/bin/env bash
# Device call 1 of branch ozaki-seven, run from main's checkout with .gitcarry/s7 (o7.tgz: `git archive ozaki-seven
# | gzip`; lib_o7.so.gz: its library) and .gitcarry/s6 (lib_op.so.gz: branch ozaki-passes's library) carried. The
# rung's GPU tests, the generic ones over it, the SASS check and the fp32-accurate dispatcher's; memcheck and
# initcheck over products that take seven moduli (seven_products.py); cuBLAS's and ozaki_int8's errors by the size
# of C (cublas_orders.py). Call 2 times it.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-05-ozaki-seven-moduli
mkdir -p /tmp/o7 && tar xzf .gitcarry/s7/o7.tgz -C /tmp/o7
gunzip -c .gitcarry/s7/lib_o7.so.gz > /tmp/o7/matmul_opt/libmatmul.so
cd /tmp/o7
L=$PWD/$D/logs; mkdir -p $L
source tools/device_env.sh
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $L/call1-environment.txt
(for tool in memcheck initcheck; do
    timeout 200 compute-sanitizer --tool $tool python3 $D/seven_products.py > $L/call1-$tool.txt 2>&1
    echo "[$tool: rc=$?]" >> $L/call1-$tool.txt
done) &
step tests timeout 240 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_ozaki.py tests/test_ozaki_arithmetic.py \
    tests/test_sass.py tests/test_gpu_kernels.py tests/test_gpu_hardening.py tests/test_gpu_precision.py \
    -k "ozaki or fp32_accurate" > $L/call1-pytest.log 2>&1
tail -5 $L/call1-pytest.log
step sanitizers wait
tail -4 $L/call1-memcheck.txt $L/call1-initcheck.txt
tar czf $OUT/logs.tgz $D/logs
step orders timeout 90 python3 $D/cublas_orders.py > $L/call1-cublas-orders.txt 2>&1
cat $L/call1-cublas-orders.txt
tar czf $OUT/logs.tgz $D/logs
