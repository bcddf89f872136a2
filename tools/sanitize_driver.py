"""Runs every registered kernel on small ragged shapes and checks the results; meant to run under compute-sanitizer.

    compute-sanitizer --tool memcheck python3 -m tools.sanitize_driver [--kernels naive,advanced]

(`invoke sanitize` runs it under memcheck, racecheck, initcheck and synccheck.) Shapes stay small (at most ~300)
because racecheck and initcheck slow kernels down by orders of magnitude; they are chosen to be ragged against
every tile size in the library (1, odd, one under and one over multiples of 32/64/128, K not a multiple of 8), so
every boundary path runs; with `best`, every configuration of best's catalogue runs too, forced, unsplit and split.
Each result is checked against a float64 reference with matmul_opt.tolerance. It also runs the benchmark helper once
per kernel on a tiny shape, so the timing path is sanitized too. Exit status 1 on any wrong result or error, 0
otherwise.
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

import matmul_opt
from matmul_opt.accuracy import error_scale, relative_error

# (6, 200, 5000) and (300, 7, 3000): the skinny kernel's small sides, with K in slices (split-K) and rows of X along K.
# (129, 300, 13) and (300, 257, 4): the shortk kernel's ragged strips and panels.
SHAPES = [(1, 1, 1), (3, 5, 7), (31, 33, 17), (64, 64, 64), (129, 127, 65), (257, 255, 129), (300, 129, 257),
          (6, 200, 5000), (300, 7, 3000), (129, 300, 13), (300, 257, 4)]
# Run plain only: more output tiles than the H200 has SMs (144 of 128 x 128 on 132), ragged N and K, so that a
# persistent kernel's last wave goes in K pieces (wgmma_3xtf32: gemm::split_tail, 3 pieces).
WAVE_SHAPES = [(1536, 1530, 300)]
# Shapes whose last tiles hold one row or column of C, which best cuts off as products of their own (its ragged-edge
# rule): two edges, one edge.
CUT_SHAPES = [(1153, 1153, 1153), (4225, 193, 2000)]
# The skinny kernel's bulk mainloop (sm_90): a wide large side with K in two slices, 20 columns of a tall A and 11 of
# one stored transposed (in groups of the small operand's rows on 132 SMs), and 7 rows of a small operand copied
# along its rows, whose rows start off 16-byte boundaries (K odd).
BULK_SHAPES = [(5, 5600, 1100), (5600, 20, 700), (8188, 11, 300), (7, 5600, 1101)]
# The longk kernel's tile of 32 over a ragged C, in K slices (split-K) added up in its cooperative launch, whose last
# stage is partial; and skinny's lanes with their k spread out (a C of at most 4 x 4) over a ragged last step.
LONG_K_SHAPES = [(29, 31, 20001), (3, 2, 9001)]
# wgmma_tf32's narrow tile over a ragged C of two tiles, K in 7 slices that each tile's cluster adds up.
CLUSTER_SLICE_SHAPES = [(150, 90, 1792)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tools.sanitize_driver", description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernels", default="", help="comma-separated kernel names (default: all registered)")
    args = parser.parse_args(argv)
    infos = matmul_opt.kernels()
    if args.kernels:
        wanted = {name.strip() for name in args.kernels.split(",") if name.strip()}
        unknown = wanted - {info.name for info in infos}
        if unknown:
            print(f"unknown kernels: {', '.join(sorted(unknown))}", file=sys.stderr)
            return 1
        infos = [info for info in infos if info.name in wanted]
    rng = np.random.default_rng(0)
    failures = 0
    for info in infos:
        if not matmul_opt.kernel_available(info.name):
            print(f"{info.name:<14} unavailable here, skipped", flush=True)
            continue
        for M, N, K in SHAPES + WAVE_SHAPES + CUT_SHAPES + BULK_SHAPES + LONG_K_SHAPES + CLUSTER_SLICE_SHAPES:
            A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
            B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
            C0 = rng.uniform(-1, 1, (M, N)).astype(np.float32)
            # The plain product, then op = T operands (Fortran order, a .T view) with alpha and beta, then B alone
            # transposed (best's transposition pass): read as stored by the kernels that take every op
            # combination, rearranged on the GPU for the others, and the scaling pass.
            variants = (("", A, B, 1.0, 0.0),
                        (" (op T, alpha, beta)", np.asfortranarray(A), np.ascontiguousarray(B.T).T, -1.5, 0.5),
                        (" (op N, T)", A, np.ascontiguousarray(B.T).T, 1.0, 0.0))
            for label, a, b, alpha, beta in variants if (M, N, K) not in WAVE_SHAPES else variants[:1]:
                out = C0.copy()
                try:
                    C = matmul_opt.run(info.name, a, b, out=out, alpha=alpha, beta=beta)
                except matmul_opt.MatmulError as exc:
                    print(f"{info.name:<14} {M}x{N}x{K}{label}: ERROR {exc}", flush=True)
                    failures += 1
                    continue
                expected = alpha * (A.astype(np.float64) @ B.astype(np.float64)) + beta * C0
                error = relative_error(C, expected, abs(alpha) * error_scale(A, B) + np.abs(beta * C0))
                failures += wrong(f"{info.name:<14} {M}x{N}x{K}{label}", error, info.arithmetic, K)
        try:
            result = matmul_opt.benchmark(info.name, 33, 31, 17, warmup=1, repetitions=1)
            print(f"{info.name:<14} benchmark helper 33x31x17: {result.ms:.3f} ms ok", flush=True)
        except matmul_opt.MatmulError as exc:
            print(f"{info.name:<14} benchmark helper: ERROR {exc}", flush=True)
            failures += 1
    if any(info.name == "best" for info in infos) and matmul_opt.kernel_available("best"):
        failures += best_configurations(rng)
    failures += streamed_host_path(rng)
    print(f"{failures} failure(s)")
    return 1 if failures else 0


def wrong(label: str, error: float, arithmetic: str, K: int) -> bool:
    """Prints the result's line; True when the error is over the tolerance of its arithmetic at K (NaN compares
    false, so a NaN result is wrong)."""
    bound = matmul_opt.tolerance(arithmetic, K)
    ok = error <= bound
    print(f"{label}: rel. error {error:.2e} (bound {bound:.1e}) {'ok' if ok else 'WRONG'}", flush=True)
    return not ok


def best_configurations(rng) -> int:
    """Every configuration of `best`, forced through the tuner's hook, unsplit and in 3 K slices, on one ragged
    shape: what best's tables reach only on some shapes runs under the tool too."""
    from matmul_opt import _library
    from matmul_opt.tune import config_names

    M, N, K = 257, 130, 1000
    A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
    B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
    expected = A.astype(np.float64) @ B.astype(np.float64)
    lib = _library.library()
    failures = 0
    try:
        for config, name in enumerate(config_names()):
            for splits in (1, 3):
                _library.check(lib.mm_best_force(config, splits))
                error = relative_error(matmul_opt.run("best", A, B), expected, error_scale(A, B))
                failures += wrong(f"best forced to {name}, {splits} slice(s), {M}x{N}x{K}", error, "fp32", K)
    finally:
        _library.check(lib.mm_best_force(-1, 1))
    return failures


def streamed_host_path(rng) -> int:
    """One product of `best` that the host path cuts into two panels (cuda/api/gemm_host.cu), with A transposed, from
    pageable and from pinned arrays, so the staging rings and the panel products run under the tool too."""
    M, N, K = 1100, 4096, 8
    A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
    B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
    pinned_a, pinned_b = matmul_opt.empty_pinned((K, M)), matmul_opt.empty_pinned((K, N))
    pinned_a[...], pinned_b[...] = A.T, B
    expected = A.astype(np.float64) @ B.astype(np.float64)
    failures = 0
    for label, a, b in (("pageable", np.asfortranarray(A), B), ("pinned", pinned_a.T, pinned_b)):
        error = relative_error(matmul_opt.run("best", a, b), expected, error_scale(A, B))
        failures += wrong(f"best streamed {M}x{N}x{K} ({label}, op T A)", error, "fp32", K)
    return failures


if __name__ == "__main__":
    sys.exit(main())
