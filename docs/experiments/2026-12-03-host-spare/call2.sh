#!/usr/bin/env bash
# Device call 2 of the host-spare record: tools.host_patterns over the result memory as landed (matmul_opt.results:
# pinned from 1 to 16 MiB, a pool of pageable blocks and a spare mapped ahead from 16 MiB), in fresh processes and
# after import torch.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-host-spare
source tools/device_env.sh >/dev/null 2>&1
[ -f matmul_opt/libmatmul.so ] || link_library
timeout 200 python3 -m tools.host_patterns --json $D/call2-patterns.json > $D/call2-patterns.txt 2>&1
cat $D/call2-patterns.txt
