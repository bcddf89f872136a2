#!/usr/bin/env bash
# The C boundary's A/B on the device: the library of the commit before the refactor (cdecda9) and of the refactor
# (4f2100e), both built off the device from the same compiler and carried xz-compressed in .ab/ (ignored), in
# alternating processes: the C costs (latency_probe, built without an rpath and pointed at each library by
# LD_LIBRARY_PATH) and the Python costs (ab_probe.py). Six rounds of each, the order swapped every round.
D=docs/experiments/2026-12-02-c-boundary
mkdir -p /tmp/ab/before /tmp/ab/after
for label in before after; do
    python3 -c "import lzma, sys; open(sys.argv[2], 'wb').write(lzma.open(sys.argv[1]).read())" \
        .ab/$label.so.xz /tmp/ab/$label/libmatmul.so
done
for round in 1 2 3 4 5 6; do
    if (( round % 2 )); then order="before after"; else order="after before"; fi
    for label in $order; do
        echo "== round $round $label"
        LD_LIBRARY_PATH=/tmp/ab/$label timeout 60 .ab/latency_probe
        MATMUL_OPT_LIBRARY=/tmp/ab/$label/libmatmul.so timeout 60 python3 $D/ab_probe.py "$label"
    done
done
