#!/usr/bin/env bash
# Device call 2 of the few-tiles record: three more cp.async tiles for C of few tiles (64x128x16 with wide warps,
# 64x128x8, 64x64x8) in best's catalogue. Their correctness (every configuration forced, every op combination),
# the sweep of every configuration over probe.py's shapes and held-out ones, the tuner with them (its tables come
# back in logs/call2-*), and the host-path block reuse under memcheck (host_block_reuse.py).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-few-tiles
mkdir -p $D/logs
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD) plus the working tree"; date -u; } > $D/logs/call2-environment.txt
save() { tar czf $OUT/logs.tgz $D/logs; }
step tests bash -c "timeout 150 python3 -m pytest tests/test_gpu_kernels.py tests/test_gpu_native_ops.py -q -p no:cacheprovider -k 'every_tile_configuration or every_configuration_of_best' > $D/logs/call2-tests.log 2>&1; grep -E '^(FAILED|ERROR)' $D/logs/call2-tests.log | head; tail -1 $D/logs/call2-tests.log"
save
step sweep bash -c "timeout 200 python3 $D/sweep.py --repetitions 10 --json $D/logs/call2-sweep.json > $D/logs/call2-sweep.txt 2>&1; cat $D/logs/call2-sweep.txt"
save
step tune bash -c "timeout 120 python3 -m matmul_opt.tune --json $D/logs/call2-tune.json --write > $D/logs/call2-tune.txt 2> $D/logs/call2-tune.err; tail -1 $D/logs/call2-tune.err; cp cuda/kernels/best_table.h $D/logs/call2-best_table.h; cp cuda/kernels/precision_table.h $D/logs/call2-precision_table.h; grep -E 'fastest|\{' cuda/kernels/best_table.h | head -60"
save
step host-reuse bash -c "timeout 60 compute-sanitizer --tool memcheck python3 $D/host_block_reuse.py > $D/logs/call2-host-reuse.txt 2>&1; python3 $D/host_block_reuse.py >> $D/logs/call2-host-reuse.txt 2>&1; cat $D/logs/call2-host-reuse.txt | grep -v '^=* *$' | head -20"
save
