"""airspeed velocity (asv) benchmarks of matmul-opt, plus the tools that read asv's results.

bench_kernels.py  the benchmarks: every registered kernel at every benchmark shape
regressions.py    reads results/asv/ and compares two commits (`invoke regressions BASE HEAD`)

asv imports every module here to discover benchmarks, so no module may touch the GPU at import time, and only
bench_kernels.py defines names that look like benchmarks (track_*, time_*, ...).
"""
