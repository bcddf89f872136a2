#!/usr/bin/env bash
# ozaki_int8 with the scaling from the lines' norms: its GPU tests, then the accuracy tables at long K (256 x K x 256).
export OUT=${OUT:-/tmp/out}
source tools/device_env.sh >/dev/null 2>&1
step link link_library
mkdir -p docs/experiments/2026-12-03-ozaki-norms/logs
step tests bash -c "timeout 100 python3 -m pytest -q -p no:cacheprovider -x tests/test_gpu_ozaki.py > docs/experiments/2026-12-03-ozaki-norms/logs/norms-tests.log 2>&1; tail -3 docs/experiments/2026-12-03-ozaki-norms/logs/norms-tests.log"
tar czf $OUT/logs.tgz docs/experiments/2026-12-03-ozaki-norms/logs
step accuracy bash -c "timeout 60 python3 -m matmul_opt --kernels ozaki_int8 cublas --sizes 1024 --accuracy-k 16 4096 65536 262144 1048576 > docs/experiments/2026-12-03-ozaki-norms/logs/norms-report.txt 2>&1; grep -A4 'Accuracy over K' docs/experiments/2026-12-03-ozaki-norms/logs/norms-report.txt; grep -A4 '^shape' docs/experiments/2026-12-03-ozaki-norms/logs/norms-report.txt"
tar czf $OUT/logs.tgz docs/experiments/2026-12-03-ozaki-norms/logs
