#!/usr/bin/env bash
# One device call on the H200 for a committed HEAD: build, the whole test suite, the report, asv, the
# sanitizers and the long leak check; every log lands in $OUT (results.tgz holds docs/results and asv's JSON).
# Usage from the repository root: scripts/h200_check.sh [checks|asv]  (both run the tests; checks: then the
# report, sanitizers, tuner, leak loop; asv: the leak loop and the offline asv run). Expects .whl/ with asv/invoke/hypothesis wheels and
# .gitcarry/repo.bundle, `git bundle create .gitcarry/repo.bundle HEAD main`, when run through the device tool).
set -uo pipefail
set -- "${1:-checks}"
OUT=${OUT:-/tmp/h200-out}
mkdir -p "$OUT" docs/results
if [ -d .whl ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
    export PYTHONPATH=/tmp/site PATH=/tmp/site/bin:$PATH
fi
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
# The device receives the working tree without git history; the bundle restores it so asv records the commit.
if [ -f .gitcarry/repo.bundle ]; then
    rm -rf .git /tmp/clone && git clone -q --no-checkout .gitcarry/repo.bundle /tmp/clone && mv /tmp/clone/.git .git && git reset -q
fi
R=docs/results
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; nvcc --version | tail -1; echo "commit $(git rev-parse HEAD)"; date -u; } 2>&1 | tee $R/environment-$1.txt
make -j16 >"$OUT/build.log" 2>&1 || { tail -50 "$OUT/build.log"; exit 1; }
make resources >$R/ptxas-resources.txt 2>&1
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
step pytest bash -c "python3 -m pytest tests -q -rs --durations=15 -p no:cacheprovider > $R/pytest-h200.log 2>&1; tail -4 $R/pytest-h200.log"
if [ "$1" = asv ]; then
    step leaks bash -c "python3 scripts/leak_check.py > $R/leak-check.log 2>&1; cat $R/leak-check.log"
    step asv bash -c "invoke asv > $R/asv-run.log 2>&1; tail -3 $R/asv-run.log"
else
    step report bash -c "python3 -m matmul_opt --sizes 1024 2048 4096 8192 4095x4097x4093 8192x8192x512 256x256x65536 --json $R/report-h200.json 2>/dev/null > $R/report-h200.txt; cat $R/report-h200.txt"
    step sanitize bash -c "invoke sanitize > $R/sanitize-summary.log 2>&1; tail -6 $R/sanitize-summary.log"
    step tune bash -c "python3 -m matmul_opt.tune --json $R/tune-h200.json > $R/tune-h200.txt 2>&1; tail -8 $R/tune-h200.txt"
    step leaks bash -c "python3 scripts/leak_check.py > $R/leak-check.log 2>&1; cat $R/leak-check.log"
fi
tar czf "$OUT/results.tgz" docs/results results/asv
