import cProfile, pstats, io, sys
sys.path.insert(0, ".")
import matmul_opt
from benchmarks.end_to_end import Operands, enqueue_seconds
for source in ("torch", "cupy", "numpy"):
    op = Operands(source, 64)
    for _ in range(200): op.call()
    op.synchronize()
    pr = cProfile.Profile(); pr.enable()
    for _ in range(2000): op.call()
    op.synchronize(); pr.disable()
    s = io.StringIO(); pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(14); print(source, s.getvalue()[:3500])
