#!/usr/bin/env bash
# One device call over variant libraries carried in .variants/variants.tar.xz (NAME/libmatmul.so, and the two
# pass_probe builds when present): the passes alone (pass_probe_main and pass_probe_new, with a profile of the 8192
# transposing split), the tensor-core kernels of each variant in ROUNDS rounds of alternating order with the SM
# clock and power sampled, wgmma_3xtf32's accuracy for ACCURACY_VARIANTS, then the GPU tests on TEST_VARIANT.
#   call 1: VARIANTS="main promote16 passes pdl combined" ROUNDS=2 ACCURACY_VARIANTS="main promote16 combined"
#           TEST_VARIANT=combined
#   call 2: VARIANTS="main final final-nopdl" ROUNDS=3 ACCURACY_VARIANTS="main final" TEST_VARIANT=final
# Logs go to $OUT.
set -uo pipefail
OUT=${OUT:-/tmp/out}
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
HERE=docs/experiments/2026-12-01-operand-passes
tar xJf .variants/variants.tar.xz -C .variants
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv,noheader | tee $OUT/environment.txt
if [ -x .variants/pass_probe_new ]; then
    for p in main new; do echo "== pass_probe_$p"; timeout 60 .variants/pass_probe_$p; done 2>&1 | tee $OUT/passes.txt
    for p in main new; do
        timeout 60 ncu --kernel-name regex:"gather|transpose_vector" --launch-skip 33 --launch-count 1 \
            --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy .variants/pass_probe_$p 8192 \
            > $OUT/ncu-$p.txt 2>&1; echo "ncu $p rc=$?"
    done
fi
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv &
SAMPLER=$!
ORDER=""
for round in $(seq ${ROUNDS:-2}); do
    if [ $((round % 2)) = 1 ]; then ORDER="$ORDER $VARIANTS"; else ORDER="$ORDER $(echo $VARIANTS | tr ' ' '\n' | tac)"; fi
done
for v in $ORDER; do
    MATMUL_OPT_LIBRARY=.variants/$v/libmatmul.so timeout 90 python3 $HERE/variant_timing.py $v
done 2>&1 | tee $OUT/timing.txt
kill $SAMPLER
for v in ${ACCURACY_VARIANTS:-}; do
    MATMUL_OPT_LIBRARY=.variants/$v/libmatmul.so timeout 120 python3 $HERE/accuracy_sweep.py $v
done 2>&1 | tee $OUT/accuracy.txt
cp .variants/$TEST_VARIANT/libmatmul.so matmul_opt/libmatmul.so
timeout 240 python3 -m pytest tests -q -rfEs -p no:cacheprovider -x > $OUT/pytest.log 2>&1
echo "pytest rc=$?"; grep -E "^(FAILED|ERROR)" $OUT/pytest.log | head -20; tail -1 $OUT/pytest.log
