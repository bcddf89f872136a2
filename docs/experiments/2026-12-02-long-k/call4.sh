#!/usr/bin/env bash
# Device call 4: the longk kernel with 4 KB warp stages for every tile (64, 32 or 16 k) and rows past op(X) zeroed
# once: its GPU tests and the probe; then the probe's longk for two variants (build/variants/): w16, 16 warps per
# block with 2 KB stages in rings of 4; k32, 8 KB stages in rings of 3.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-long-k
L=$D/logs
mkdir -p $L
source tools/device_env.sh
step tests bash -c "timeout 100 python3 -m pytest tests/test_gpu_long_k_kernel.py -q -rfEs -p no:cacheprovider > $L/call4-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $L/call4-pytest.log | head; tail -1 $L/call4-pytest.log"
step probe bash -c "timeout 200 python3 $D/probe.py --kernels longk skinny best cublas > $L/call4-probe.txt 2>&1; cat $L/call4-probe.txt"
cp matmul_opt/libmatmul.so /tmp/main.so
SHAPES="32x32x300000 16x16x500000 64x64x1048576 32x32x131072 16x16x131072 24x24x131072 5x7x200000 20x30x100000 64x16x300000 96x96x131072"
for v in w16 k32; do
  python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('build/variants/$v.so.xz'), open('matmul_opt/libmatmul.so','wb'))"
  step probe-$v bash -c "timeout 60 python3 $D/probe.py --kernels longk --shapes $SHAPES > $L/call4-probe-$v.txt 2>&1; cat $L/call4-probe-$v.txt"
done
cp /tmp/main.so matmul_opt/libmatmul.so
cp -r $L $OUT/
