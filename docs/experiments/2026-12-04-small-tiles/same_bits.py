"""Writes the FFMA warp-tile kernels' products (pipelined, splitk, pairwise, tma, streamk, warptile and best) on a few
shapes in all four op combinations to OUT/*.npy (fixed seeds), or compares two such folders bit for bit; run once
per library build (MATMUL_OPT_LIBRARY), GPU needed. A change of which lane holds which outputs must not change a
single bit: every output's sum runs in the same order in the same thread.

    python3 same_bits.py write OUT
    python3 same_bits.py compare DIR_A DIR_B
"""
import sys
from pathlib import Path

import numpy as np
import torch

import matmul_opt

KERNELS = ["pipelined", "splitk", "pairwise", "tma", "streamk", "warptile", "best"]
SHAPES = [(257, 6001, 777), (385, 769, 1537), (1153, 1153, 1153), (128, 4096, 4096), (1000, 999, 1001)]


def operand(rows, cols, transposed, seed):
    g = torch.Generator().manual_seed(seed)
    if transposed:
        return (torch.rand(cols, rows, generator=g) * 2 - 1).cuda().t()
    return (torch.rand(rows, cols, generator=g) * 2 - 1).cuda()


def write(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for M, N, K in SHAPES:
        for ta in (False, True):
            for tb in (False, True):
                a = operand(M, K, ta, M + 2 * N + 3 * K)
                b = operand(K, N, tb, 7 * M + N + K)
                for kernel in KERNELS:
                    C = matmul_opt.run(kernel, a, b)
                    np.save(out / f"{kernel}-{M}x{N}x{K}-{'T' if ta else 'N'}{'T' if tb else 'N'}.npy", C.cpu().numpy())


def compare(x: Path, y: Path) -> int:
    names = sorted(p.name for p in x.glob("*.npy"))
    differ = 0
    for name in names:
        same = np.array_equal(np.load(x / name), np.load(y / name))
        differ += not same
        print(f"{name[:-4]}: {'same bits' if same else 'DIFFER'}")
    print(f"{differ} of {len(names)} differ")
    return 1 if differ or not names else 0


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(Path(sys.argv[2]))
        sys.exit(0)
    sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
