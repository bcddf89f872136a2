"""wgmma_tf32 on the H200: correctness on ragged shapes and every layout, layout diagnostics, accuracy against
cuBLAS TF32 over K, and speed against cublas_tf32 and mma_tf32 in one process.

    MATMUL_OPT_LIBRARY=path/to/libmatmul.so python3 docs/experiments/2026-12-01-wgmma-tf32/wgmma_probe.py [--quick]

Correctness: relative Frobenius error against float64 (fresh uniform [-1, 1] inputs), next to cublas_tf32's on
the same inputs. Diagnostics: with A = I the product is tf32(B) exactly (and with B = I, tf32(A)); the count of
wrong elements and the first one say which operand's layout is off. Speed: matmul_opt.benchmark (CUDA events,
median of repetitions).
"""
import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import matmul_opt  # noqa: E402
from matmul_opt.accuracy import relative_error  # noqa: E402

KERNEL = "wgmma_tf32"
rng = np.random.default_rng(7)


def tf32(x):
    """Round-to-nearest (ties away) to 10 mantissa bits, as cvt.rna.tf32.f32 does for finite values."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x1000) & 0xFFFFE000).astype(np.uint32)
    return rounded.view(np.float32)


def operand(rows, cols, transposed):
    x = rng.uniform(-1, 1, (cols, rows) if transposed else (rows, cols)).astype(np.float32)
    return x.T if transposed else x


def correctness():
    shapes = [(128, 256, 32), (256, 256, 256), (1, 1, 1), (7, 9, 5), (129, 257, 33), (300, 520, 1000),
              (1024, 1024, 1024), (4095, 4097, 4093), (513, 255, 8191), (256, 256, 65536)]
    print("== correctness (relative error; cublas_tf32 on the same inputs)")
    worst = 0.0
    for M, N, K in shapes:
        for op_a in (False, True):
            for op_b in (False, True):
                if (op_a or op_b) and M * N * K > 2**31:
                    continue
                A, B = operand(M, K, op_a), operand(K, N, op_b)
                ref = A.astype(np.float64) @ B.astype(np.float64)
                rounded = tf32(A).astype(np.float64) @ tf32(B).astype(np.float64)
                out = matmul_opt.run(KERNEL, A, B)
                e, e_rounded = relative_error(out, ref), relative_error(out, rounded)
                c = relative_error(matmul_opt.run("cublas_tf32", A, B), ref)
                worst = max(worst, e_rounded)
                flag = "" if e_rounded <= 1e-5 else "   <-- WRONG"
                print(f"{M}x{N}x{K} op {'T' if op_a else 'N'}{'T' if op_b else 'N'}: {e:.3e} (cublas_tf32 {c:.3e}; "
                      f"against the product of the rounded inputs {e_rounded:.1e}){flag}", flush=True)
    print(f"worst error against the product of the rounded inputs {worst:.1e}")


def diagnostics():
    print("== diagnostics (identity operands)")
    n = 256
    for which in ("A=I", "B=I"):
        X = rng.uniform(-1, 1, (n, n)).astype(np.float32)
        eye = np.eye(n, dtype=np.float32)
        A, B = (eye, X) if which == "A=I" else (X, eye)
        out = matmul_opt.run(KERNEL, A, B)
        want = tf32(X)
        wrong = np.argwhere(out != want)
        print(f"{which}: {len(wrong)} of {n * n} elements differ from tf32(X)", end="")
        if len(wrong):
            i, j = wrong[0]
            src = np.argwhere(np.isclose(want, out[i, j], rtol=0, atol=1e-7))
            print(f"; first ({i}, {j}) = {out[i, j]!r}, want {want[i, j]!r}; that value sits at {src[:3].tolist()}",
                  end="")
        print(flush=True)


def accuracy():
    print("== accuracy over K (512 x K x 512, uniform [-1, 1])")
    for K in (256, 4096, 16384, 65536):
        A = rng.uniform(-1, 1, (512, K)).astype(np.float32)
        B = rng.uniform(-1, 1, (K, 512)).astype(np.float32)
        ref = A.astype(np.float64) @ B.astype(np.float64)
        errs = {k: relative_error(matmul_opt.run(k, A, B), ref) for k in (KERNEL, "cublas_tf32", "mma_tf32")}
        print(f"K={K}: " + "  ".join(f"{k} {e:.4e}" for k, e in errs.items()) +
              f"  ratio {errs[KERNEL] / errs['cublas_tf32']:.3f}", flush=True)


def speed(shapes):
    print("== speed (TFLOPS; ratio to cublas_tf32; % of 494.7 TF32 peak)")
    for shape in shapes:
        r = {k: matmul_opt.benchmark(k, *shape, warmup=5, repetitions=20) for k in (KERNEL, "cublas_tf32", "mma_tf32")}
        base = r["cublas_tf32"].gflops
        print("x".join(map(str, shape)) + ": " +
              "  ".join(f"{k} {v.ms:.3f} ms {v.gflops / 1e3:.1f} ({v.gflops / base:.3f}x)" for k, v in r.items()) +
              f"  peak {100 * r[KERNEL].gflops / 494.7e3:.1f}%", flush=True)


def layouts(sizes):
    """B stored K x N (transformed in shared memory) against B stored N x K, and the pass that would transpose B."""
    import torch
    print("== B's layout (ms per call, back-to-back calls on PyTorch tensors, CUDA events)")

    def timed(f, reps=20):
        for _ in range(3):
            f()
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        times = []
        for _ in range(5):
            start.record()
            for _ in range(reps):
                f()
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop) / reps)
        return float(np.median(times))

    for n in sizes:
        A = torch.rand(n, n, device="cuda") * 2 - 1
        B = torch.rand(n, n, device="cuda") * 2 - 1
        B_rows = B.t().contiguous()  # B stored N x K
        C = torch.empty(n, n, device="cuda")
        kn = timed(lambda: matmul_opt.run(KERNEL, A, B, out=C))
        nk = timed(lambda: matmul_opt.run(KERNEL, A, B_rows.T, out=C))
        transpose = timed(lambda: B_rows.copy_(B.t()))
        print(f"{n}^3: B K x N {kn:.3f} ms   B N x K {nk:.3f} ms   transposing B {transpose:.3f} ms   "
              f"pre-pass total {nk + transpose:.3f} ms", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="diagnostics, 4096^3 and the layouts only")
    args = parser.parse_args()
    print(matmul_opt.device_info().name, flush=True)
    diagnostics()
    if args.quick:
        speed([(4096, 4096, 4096)])
        layouts([4096])
        return
    correctness()
    accuracy()
    speed([(2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192), (4095, 4097, 4093)])
    layouts([4096, 8192])


if __name__ == "__main__":
    main()
