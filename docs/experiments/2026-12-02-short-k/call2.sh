#!/usr/bin/env bash
# Device call 2: the shortk kernel checked (its GPU tests, memcheck, racecheck and synccheck), its grid along strips
# swept (grid_sweep), the tuner with the shortk sweep (its timings become best_table.h's kShortkMaxK), and pageable
# NumPy results populated while the call runs (docs/experiments/2026-12-02-host-populate/populate.py).

export OUT=${OUT:-/tmp/out}
source tools/device_env.sh
D=docs/experiments/2026-12-02-short-k
step sweep bash -c "timeout 100 $D/grid_sweep > $OUT/grid_sweep.txt 2>&1; cat $OUT/grid_sweep.txt"
step pytest bash -c "timeout 200 python3 -m pytest tests/test_gpu_short_k.py tests/test_gpu_kernels.py tests/test_cpu_api.py -k 'shortk or short_k or best_tuning' -q -p no:cacheprovider -rfE > $OUT/pytest.txt 2>&1; grep -E '^(FAILED|ERROR)' $OUT/pytest.txt | head -20; tail -1 $OUT/pytest.txt"
step sanitize bash -c "timeout 150 python3 -m tools.sanitize --kernels shortk --tools memcheck,racecheck,synccheck > $OUT/sanitize.txt 2>&1; tail -3 $OUT/sanitize.txt"
step tune bash -c "timeout 200 python3 -m matmul_opt.tune --json $OUT/tune.json > $OUT/tune.txt 2> $OUT/tune.err; tail -3 $OUT/tune.err; grep -E '^shortk|^sweep' $OUT/tune.txt"
step populate bash -c "timeout 200 python3 docs/experiments/2026-12-02-host-populate/populate.py > $OUT/populate.txt 2>&1; cat $OUT/populate.txt"
