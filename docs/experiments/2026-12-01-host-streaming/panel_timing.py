import statistics, time, sys, numpy as np, matmul_opt
rng = np.random.default_rng(0)
for shape in [(4096, 4096, 4096), (8192, 8192, 8192), (4095, 4097, 4093)]:
    M, N, K = shape
    A = rng.uniform(-1, 1, (M, K)).astype(np.float32); B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
    pa, pb, po = matmul_opt.empty_pinned(A.shape), matmul_opt.empty_pinned(B.shape), matmul_opt.empty_pinned((M, N))
    pa[...], pb[...] = A, B
    res = []
    for label, call in (("numpy", lambda: matmul_opt.run("best", A, B)), ("pinned", lambda: matmul_opt.run("best", pa, pb, out=po))):
        call(); call()
        ts = []
        for _ in range(7):
            t = time.perf_counter(); call(); ts.append(time.perf_counter() - t)
        res.append(f"{label} {statistics.median(ts)*1e3:.2f} ms (min {min(ts)*1e3:.2f})")
    print(sys.argv[1], "x".join(map(str, shape)), " | ".join(res), "kernel %.2f ms" % matmul_opt.benchmark("best", M, N, K).ms, flush=True)
