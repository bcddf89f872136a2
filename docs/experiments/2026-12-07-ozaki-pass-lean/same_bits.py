"""Writes ozaki_int8's products on a few shapes, op combinations and input kinds to OUT/*.npy (fixed seeds), or
compares two such folders bit for bit; run once per library build (MATMUL_OPT_LIBRARY), GPU needed. A pass that
computes the same integers and the same rounding another way must not change a single bit.

    python3 same_bits.py write OUT
    python3 same_bits.py compare DIR_A DIR_B

Kinds: uniform in [-1, 1]; magnitudes spread over 2^-40..2^40; lines of tiny values (2^-110 and below, whose scale
2^shift passes the float exponent's range) beside ordinary ones; subnormals in some lines; an Inf and a NaN.
Shapes: M N a multiple of 16 or 4 (vector and word loads in the rebuild; float4 stores where N is a multiple of 4,
one by one where not, rows wrapping inside a thread's elements) and neither (single bytes), K ragged, more rows of A
than a residue grid's height of 65535 blocks holds, and operands whose residue pass along rows takes 1, 2 and 4 lines
per warp (2500 x 700 x 3000: A's rows 2, B's rows 1; 2100001 x 3 x 20: 4).
"""
import sys
from pathlib import Path

import numpy as np
import torch

import matmul_opt

SHAPES = [(256, 512, 300), (129, 131, 517), (1000, 1001, 999), (77, 1, 4096), (3, 300, 64), (48, 1001, 100),
          (2100001, 3, 20), (2500, 700, 3000)]
KINDS = ["uniform", "wide", "tiny", "subnormal", "nonfinite"]


def values(rows, cols, kind, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(rows, cols, generator=g, dtype=torch.float64) * 2 - 1
    if kind == "wide":
        x *= torch.exp2(torch.randint(-40, 41, (rows, cols), generator=g).double())
    elif kind == "tiny":
        x[::3] *= 2.0 ** -110
        x[1::3] *= 2.0 ** -140  # partly subnormal
    elif kind == "subnormal":
        x[::2] *= 2.0 ** -135
    elif kind == "nonfinite":
        x[rows // 2, cols // 3] = float("inf")
        x[rows // 3, cols // 2] = float("nan")
    return x.float()


def operand(rows, cols, transposed, kind, seed):
    if transposed:
        return values(cols, rows, kind, seed).cuda().t()
    return values(rows, cols, kind, seed).cuda()


def write(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for M, N, K in SHAPES:
        for kind in KINDS:
            for ta in (False, True):
                for tb in (False, True):
                    a = operand(M, K, ta, kind, M + 2 * N + 3 * K)
                    b = operand(K, N, tb, kind, 7 * M + N + K)
                    C = matmul_opt.run("ozaki_int8", a, b)
                    name = f"{M}x{N}x{K}-{kind}-{'T' if ta else 'N'}{'T' if tb else 'N'}"
                    np.save(out / f"{name}.npy", C.cpu().numpy())


def compare(x: Path, y: Path) -> int:
    names = sorted(p.name for p in x.glob("*.npy"))
    differ = 0
    for name in names:
        a, b = np.load(x / name), np.load(y / name)
        same = a.tobytes() == b.tobytes()
        differ += not same
        if not same:
            print(f"{name}: {np.count_nonzero(a.view(np.uint32) != b.view(np.uint32))} of {a.size} differ")
    print(f"{len(names) - differ} of {len(names)} products the same bit for bit")
    return 1 if differ or not names else 0


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(Path(sys.argv[2]))
    else:
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
