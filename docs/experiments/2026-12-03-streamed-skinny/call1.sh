#!/usr/bin/env bash
# Device call 1: the skinny kernel's streamed schedule (tests, the four sanitizers over it, its speed against skinny
# as planned, best and cuBLAS on the small-side shapes), and the ozaki norms scaling's generic GPU tests and
# sanitizers (docs/experiments/2026-12-03-ozaki-norms/call2.sh's first half).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-streamed-skinny
Z=docs/experiments/2026-12-03-ozaki-norms
mkdir -p $D/logs $Z/logs
source tools/device_env.sh >/dev/null 2>&1
step link link_library
( timeout 240 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 --timeout 220 > $Z/logs/call2-sanitize.log 2>&1
  for f in results/latest/sanitizer-*-ozaki_int8.log; do cp $f $Z/logs/call2-${f##*/}; done ) &
step speed bash -c "timeout 150 python3 $D/speed.py --rounds 3 --json $D/logs/call1-speed.json > $D/logs/call1-speed.txt 2>&1; cat $D/logs/call1-speed.txt"
tar czf $OUT/logs.tgz $D/logs $Z/logs
step tests bash -c "timeout 240 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_shape_grid.py \
    tests/test_gpu_kernels.py -k 'streamed or every_tile_configuration or skinny or grid' > $D/logs/call1-tests.log 2>&1; tail -4 $D/logs/call1-tests.log"
for tool in memcheck racecheck synccheck initcheck; do
    step $tool bash -c "timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 python3 $D/streamed_products.py \
        > $D/logs/call1-sanitizer-$tool.log 2>&1; tail -2 $D/logs/call1-sanitizer-$tool.log"
done
step wait-ozaki-sanitize wait
tail -6 $Z/logs/call2-sanitize.log
step ozaki-tests bash -c "timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_ozaki.py tests/test_sass.py \
    tests/test_gpu_kernels.py tests/test_gpu_hardening.py -k ozaki > $Z/logs/call2-tests.log 2>&1; tail -3 $Z/logs/call2-tests.log"
tar czf $OUT/logs.tgz $D/logs $Z/logs
step ncu bash -c "timeout 90 ncu --clock-control none --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size \
    python3 $D/profile.py 8x4096x4096 3x11008x4096 9000x24x2000 17x8000x8000 4096x16x4096 1x1500x9000 > $D/logs/call1-ncu.txt 2>&1; \
    grep -E '^  [a-zA-Z]|duration|throughput|grid_size' $D/logs/call1-ncu.txt | cut -c1-110 | tail -40"
tar czf $OUT/logs.tgz $D/logs $Z/logs
