"""Writes skinny's products of the bulk mainloop's plans that take no even shares to OUT/*.npy (fixed seeds, every
op combination), or compares two such folders bit for bit; run once per library build (MATMUL_OPT_LIBRARY), GPU
needed. The shares change the bulk kernel's code for every plan, not the sums of those that take none.

    python3 bulk_bits.py write OUT
    python3 bulk_bits.py compare DIR_A DIR_B

Shapes: K slices summed in clusters (17 x 8000 x 8000), one slice per column block of few rows (4 x 12000 x 16384,
3 x 11008 x 4096), slices of 8 rows (6 x 6000 x 5000), and 8001 x 9 x 3000 (groups or slices of 12 rows along K).
"""
import sys
from pathlib import Path

import numpy as np
import torch

import matmul_opt

SHAPES = [(17, 8000, 8000), (4, 12000, 16384), (3, 11008, 4096), (6, 6000, 5000), (8001, 9, 3000)]


def operand(rows, cols, transposed, seed):
    g = torch.Generator().manual_seed(seed)
    shape = (cols, rows) if transposed else (rows, cols)
    x = (torch.rand(*shape, generator=g) * 2 - 1).cuda()
    return x.t() if transposed else x


def write(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for M, N, K in SHAPES:
        for ta in (False, True):
            for tb in (False, True):
                a = operand(M, K, ta, M + 2 * N + 3 * K)
                b = operand(K, N, tb, 7 * M + N + K)
                C = matmul_opt.run("skinny", a, b)
                np.save(out / f"{M}x{N}x{K}-{'T' if ta else 'N'}{'T' if tb else 'N'}.npy", C.cpu().numpy())


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
