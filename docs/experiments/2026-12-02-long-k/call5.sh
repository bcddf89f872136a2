#!/usr/bin/env bash
# Device call 5: the tuner with the long-K-thin sweep (skinny against longk on C of S x 32 and 32 x S), the
# sanitizers on longk, the whole test suite, and the machine code of every kernel against the library of 53ee9a9 (build/variants/old.so.xz), the last
# commit before the ring's barrier became a parameter.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-long-k
L=$D/logs
mkdir -p $L
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD) + working tree"; date -u; } > $L/call5-environment.txt
step tune bash -c "timeout 150 python3 -m matmul_opt.tune --json $L/call5-tune.json > $L/call5-tune.txt 2>/dev/null; grep -A3 kLongkMinSmallSide $L/call5-tune.txt | head -5; grep long_k_thin $L/call5-tune.txt"
cp -r $L $OUT/
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('build/variants/old.so.xz'), open('/tmp/old.so','wb'))"
step sass bash -c "timeout 120 python3 -m tools.sass_compare /tmp/old.so matmul_opt/libmatmul.so > $L/call5-sass.txt 2>&1; grep -c identical $L/call5-sass.txt; grep -v identical $L/call5-sass.txt | head -40"
cp -r $L $OUT/
step sanitize bash -c "timeout 200 python3 -m tools.sanitize --kernels longk --tools memcheck,racecheck,synccheck > $L/call5-sanitize.log 2>&1; tail -4 $L/call5-sanitize.log"
for t in memcheck racecheck synccheck; do cp results/latest/sanitizer-$t.log $L/call5-sanitizer-$t.log; done
cp -r $L $OUT/
step pytest bash -c "timeout 200 python3 -m pytest tests -q -rfEs -p no:cacheprovider -x > $L/call5-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $L/call5-pytest.log | head; tail -1 $L/call5-pytest.log"
cp -r $L $OUT/
