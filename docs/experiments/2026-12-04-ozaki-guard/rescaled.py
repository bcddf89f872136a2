"""ozaki_int8 on the GPU against wgmma_3xtf32 and cuBLAS fp32 on operands scaled by a diagonal that the other undoes
(A = X D, B = D^-1 Y, D = diag(2^U(-s, s)), X and Y uniform), and on uniform and spread inputs: relative errors
(error_scale) of fresh inputs per row. With main's library (MATMUL_OPT_LIBRARY) it shows what the scheme returns
unchecked; with the branch's, what the scaling check makes of it.

    python3 docs/experiments/2026-12-04-ozaki-guard/rescaled.py [--shape 1024 4096 1024]
"""
import argparse

import numpy as np

import matmul_opt
from matmul_opt.accuracy import INPUT_KINDS, error_scale, relative_error

KERNELS = ("ozaki_int8", "wgmma_3xtf32", "cublas")


def rescaled(rng, M, K, N, octaves):
    d = np.exp2(rng.uniform(-octaves, octaves, K))
    return ((rng.uniform(-1, 1, (M, K)) * d).astype(np.float32),
            (rng.uniform(-1, 1, (K, N)) / d[:, None]).astype(np.float32))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--shape", type=int, nargs=3, default=[1024, 4096, 1024])
    args = parser.parse_args()
    M, K, N = args.shape
    rng = np.random.default_rng(0)
    cases = {kind: (make(rng, (M, K)), make(rng, (K, N))) for kind, make in INPUT_KINDS.items()}
    cases.update({f"rescaled 2^+-{s}": rescaled(rng, M, K, N, s) for s in (2, 3, 5, 10, 20)})
    print(f"{M}x{K}x{N}, relative error (error_scale); ozaki_int8 == wgmma_3xtf32: the same bits")
    print(f"{'inputs':<28}" + "".join(f"{name:>14}" for name in KERNELS) + "   ozaki_int8 == wgmma_3xtf32")
    for label, (A, B) in cases.items():
        reference = A.astype(np.float64) @ B.astype(np.float64)
        scale = error_scale(A, B)
        results = {name: matmul_opt.run(name, A, B) for name in KERNELS}
        errors = "".join(f"{relative_error(results[name], reference, scale):14.2e}" for name in KERNELS)
        same = np.array_equal(results["ozaki_int8"], results["wgmma_3xtf32"])
        print(f"{label:<28}{errors}   {same}", flush=True)


if __name__ == "__main__":
    main()
