#!/usr/bin/env bash
# Device call 3: the whole test suite (GPU tier included) at the commit that merges both changes; beside it, the
# int8 probe under racecheck again with unbuffered output (it exited with an error and no output in call 1).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-fold-and-narrow
I=docs/experiments/2026-12-03-int8-wgmma
mkdir -p $D/logs $I/logs
source tools/device_env.sh >/dev/null 2>&1
step link link_library
git rev-parse HEAD > $D/logs/call3-commit.txt
( timeout 200 stdbuf -o0 -e0 compute-sanitizer --tool racecheck ab/int8_probe 512 > $I/logs/call3-racecheck.log 2>&1
  echo "racecheck rc=$?" >> $I/logs/call3-racecheck.log ) &
step suite bash -c "timeout 400 python3 -m pytest -q -p no:cacheprovider tests > $D/logs/call3-suite.log 2>&1; tail -15 $D/logs/call3-suite.log"
wait
tail -5 $I/logs/call3-racecheck.log
tar czf $OUT/logs.tgz $D/logs $I/logs
