"""Writes the skinny kernel's products on shapes its bulk and staged mainloops take, in all four op combinations, to OUT/*.npy
(fixed seeds), or compares two such folders bit for bit; run once per library build (MATMUL_OPT_LIBRARY), GPU needed.

    python3 same_bits.py write OUT [MxNxK ...]   (the shapes below unless given)
    python3 same_bits.py compare DIR_A DIR_B
"""
import sys
from pathlib import Path

import numpy as np
import torch

import matmul_opt

# Tile counts per slice that are and are not multiples of the fold (K = 2000: 63 tiles; 4096: 128; 8192 in 2 slices),
# and three that the staged mainloop takes (a tall A stored along K, up to 16 columns, a narrow large side).
SHAPES = [(9000, 24, 2000), (24, 9000, 2000), (17, 8000, 8192), (11, 14336, 2500), (3, 11008, 4096),
          (20, 6004, 4096), (6004, 20, 4096), (13, 5120, 13824), (4096, 16, 4096), (7000, 5, 3000), (3001, 13, 2049)]


def operand(rows, cols, transposed, seed):
    """A rows x cols operand, stored transposed (a transposed view) where asked."""
    g = torch.Generator().manual_seed(seed)
    if transposed:
        return (torch.rand(cols, rows, generator=g) * 2 - 1).cuda().t()
    return (torch.rand(rows, cols, generator=g) * 2 - 1).cuda()


def write(out: Path, shapes) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for M, N, K in shapes:
        for ta in (False, True):
            for tb in (False, True):
                a = operand(M, K, ta, M + 2 * N + 3 * K)
                b = operand(K, N, tb, 7 * M + N + K)
                C = matmul_opt.run("skinny", a, b)
                np.save(out / f"{M}x{N}x{K}-{'T' if ta else 'N'}{'T' if tb else 'N'}.npy", C.cpu().numpy())


def compare(x: Path, y: Path) -> int:
    differ = 0
    for f in sorted(x.glob("*.npy")):
        same = np.array_equal(np.load(f).view(np.uint32), np.load(y / f.name).view(np.uint32))
        differ += not same
        print(f"{f.stem}: {'same bits' if same else 'DIFFERENT'}")
    print(f"{differ} of {len(list(x.glob('*.npy')))} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(Path(sys.argv[2]), [tuple(map(int, a.split("x"))) for a in sys.argv[3:]] or SHAPES)
    else:
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
