"""wgmma_3xtf32 of two builds on the same inputs, bit for bit (GPU needed).

    python3 docs/experiments/2026-12-01-register-a/bitwise_compare.py MAIN.so BRANCH.so

Splitting A in registers instead of by a pass changes where the split happens, not its values (both use
split_tf32), nor the MMAs' order or the promotion's: so at shapes whose schedule is the same in both builds (no
split tail, or the same pieces) the products must be identical. Each build runs in its own process on inputs drawn
from fixed seeds, as PyTorch CUDA tensors (one product per call; NumPy operands would go in row panels) in layouts
NN and TT (transposed views; TT: A gathered K-major first), and prints a SHA-256 of each product."""
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
# No split tail in either build (2048^3: 256 tiles; 4095x4097x4093: 8 whole waves), the same pieces (4096^3: 5 of
# 26 K tiles), K slices (300 x 260 x 5000).
SHAPES = [(2048, 2048, 2048), (4096, 4096, 4096), (4095, 4097, 4093), (300, 260, 5000)]


def digests() -> dict:
    sys.path.insert(0, str(ROOT))
    import torch

    import matmul_opt

    def on_gpu(X, transposed):  # X itself, or a transposed view of a copy of X^T: the same matrix, op = T
        return torch.from_numpy(X.T.copy()).cuda().T if transposed else torch.from_numpy(X).cuda()

    out = {}
    for seed, (M, N, K) in enumerate(SHAPES):
        rng = np.random.default_rng(seed)
        A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
        B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
        for ops in ("NN", "TT"):
            C = matmul_opt.run("wgmma_3xtf32", on_gpu(A, ops[0] == "T"), on_gpu(B, ops[1] == "T"))
            C = np.ascontiguousarray(C.cpu().numpy())
            out[f"{M}x{N}x{K} {ops}"] = hashlib.sha256(C.tobytes()).hexdigest()[:16]
    return out


def main() -> int:
    results = []
    for library in sys.argv[1:3]:
        env = dict(os.environ, MATMUL_OPT_LIBRARY=str(Path(library).resolve()))
        child = subprocess.run([sys.executable, __file__, "--digests"], env=env, capture_output=True, text=True,
                               check=True)
        results.append(json.loads(child.stdout))
    same = 0
    for key in results[0]:
        verdict = "identical" if results[0][key] == results[1][key] else "DIFFERENT"
        same += verdict == "identical"
        print(f"{key:<22} {results[0][key]} {results[1][key]} {verdict}")
    print(f"{same} of {len(results[0])} products identical")
    return 0 if same == len(results[0]) else 1


if __name__ == "__main__":
    if "--digests" in sys.argv:
        print(json.dumps(digests()))
    else:
        sys.exit(main())
