#!/usr/bin/env bash
# Device call 2 of this record, with .gitcarry/s17/lib_main.so.xz (main's build): what the two kernels behind issue
# 32's and 33's bytes-bound shapes spend their instructions and stalls on:
#   1. skinny's bulk kernel as 9000x24x2000 runs it (X along K, 8 rows of Y, Y along S): its machine code
#      (cuobjdump -sass), and Nsight Compute's SourceCounters, WarpStateStats and InstructionStats sections;
#   2. wgmma_tf32 as best_tf32 runs 10000x2000x100: SpeedOfLight, MemoryWorkloadAnalysis, WarpStateStats and
#      SourceCounters;
# everything into one tarball, $OUT/all.tgz, re-packed after each step.
LOG=/tmp/log2; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
ANY=docs/experiments/2026-12-07-bulk-shares/probe.py
pack() { tar czf $OUT/all.tgz -C /tmp log2; }
git rev-parse HEAD | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
    .gitcarry/s17/lib_main.so.xz matmul_opt/libmatmul.so
step sass timeout 120 bash -c "cuobjdump -sass matmul_opt/libmatmul.so > /tmp/all.sass 2>&1"
python3 - <<'PY' > $LOG/skinny-bulk.sass
import re
text = open("/tmp/all.sass").read()
for block in re.split(r"(?=\n\s+Function : )", text):
    if "skinny_bulk" in block and "BulkShapeILNS_5XRowsE1ELi8ELi6ELi1EEELNS_5YRowsE1E" in block:
        print(block)
PY
wc -l $LOG/skinny-bulk.sass; grep -c "FFMA" $LOG/skinny-bulk.sass; pack
step "skinny ncu" timeout 90 ncu --kernel-name regex:skinny_bulk --launch-skip 1 --launch-count 1 \
    --section WarpStateStats --section InstructionStats --section SourceCounters --section MemoryWorkloadAnalysis \
    python3 $ANY best 9000x24x2000 > $LOG/skinny-ncu.txt 2>&1
pack
step "wgmma ncu" timeout 90 ncu --kernel-name regex:wgmma_tf32 --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SourceCounters \
    --section LaunchStats python3 $ANY best_tf32 10000x2000x100 > $LOG/wgmma-ncu.txt 2>&1
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
