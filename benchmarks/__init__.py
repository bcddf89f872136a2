"""airspeed velocity (asv) benchmarks of matmul-opt: the suite alone, and what it imports.

bench_kernels.py     the benchmarks: every registered kernel at every benchmark shape
bench_grid.py        the shape grid's products against cuBLAS and the roofline
bench_end_to_end.py  what a run() call costs where the operands live (end_to_end.py measures it)
machine.py           registers this host with asv under its GPU's name (`invoke asv` runs it)

The tools that read asv's results (the regression gate, `invoke regressions`, and the graph) are in tools/.
asv imports every module here to discover benchmarks, so no module may touch the GPU at import time, and only
the bench_*.py modules define names that look like benchmarks (track_*, time_*, ...).
"""
