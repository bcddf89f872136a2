"""skinny's products on small shapes whose bulk plans take even shares (one block per SM of 24 or 20 rows of sums,
pieces of 2 to 4 column blocks per share), every op combination, each checked against float64: what
compute-sanitizer runs over the shares (the sanitizer driver's shapes are too small for them). GPU needed.

    python3 shares_products.py
"""
import itertools
import sys

import numpy as np
import torch

import matmul_opt

SHAPES = [(2000, 24, 1200), (20, 2100, 1500), (1001, 21, 2000)]


def main() -> int:
    worst = 0.0
    for (M, N, K), ta, tb in itertools.product(SHAPES, (False, True), (False, True)):
        g = torch.Generator().manual_seed(M + N + K)
        a = torch.rand(K, M, generator=g).t() if ta else torch.rand(M, K, generator=g)
        b = torch.rand(N, K, generator=g).t() if tb else torch.rand(K, N, generator=g)
        C = matmul_opt.run("skinny", (a * 2 - 1).cuda(), (b * 2 - 1).cuda()).cpu().double().numpy()
        reference = (a * 2 - 1).double().numpy() @ (b * 2 - 1).double().numpy()
        error = np.linalg.norm(C - reference) / np.linalg.norm(reference)
        worst = max(worst, error)
        print(f"{M}x{N}x{K} op {'T' if ta else 'N'}{'T' if tb else 'N'}: relative error {error:.2e}")
    print(f"worst {worst:.2e}")
    return 0 if worst < 1e-5 else 1


if __name__ == "__main__":
    sys.exit(main())
