#!/usr/bin/env bash
# One device call on the H200: build, the whole test suite, the main job and the resource report, with every
# log written to $OUT. Usage (from the repository root): scripts/h200_check.sh [report sizes...]
set -uo pipefail
OUT=${OUT:-/tmp/h200-out}
mkdir -p "$OUT"
if [ -d .whl ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
    export PYTHONPATH=/tmp/site PATH=/tmp/site/bin:$PATH
fi
export PYTHONUNBUFFERED=1
# The device receives the working tree without git history; a bundle made here restores it, so asv can
# record results against the real commit.
if [ -f .gitcarry/repo.bundle ]; then
    rm -rf .git && git clone -q --no-checkout .gitcarry/repo.bundle /tmp/clone && mv /tmp/clone/.git .git && git reset -q
fi
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; nvcc --version | tail -1; git rev-parse HEAD; } 2>&1 | tee "$OUT/env.txt"
make -j16 >"$OUT/build.log" 2>&1 || { tail -50 "$OUT/build.log"; exit 1; }
make resources >"$OUT/resources.txt" 2>&1
python3 -m pytest tests -q -rs -x --durations=10 2>&1 | tee "$OUT/pytest.log" | tail -25
sizes=${*:-1024 4096}
python3 -m matmul_opt --sizes $sizes --json "$OUT/report.json" 2>"$OUT/report.stderr" | tee "$OUT/report.txt"
