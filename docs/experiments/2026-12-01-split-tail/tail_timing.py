"""wgmma_3xtf32 with its last wave split (gemm::split_tail) against the library without it, in alternating
processes on one GPU (ABBA order, so that the GPU's power state drifts over both alike).

    python3 docs/experiments/2026-12-01-split-tail/tail_timing.py BEFORE.so AFTER.so [--rounds 2]

Each process times wgmma_3xtf32 and cuBLAS fp32 with matmul_opt.benchmark (3 warm-up launches, median of 10) at
shapes whose last wave the split changes (3072^3, 4096^3, 8192^3, 8191x2049x4095) and one it leaves alone
(4095x4097x4093: 1056 tiles, 8 whole waves on 132 SMs). Prints TFLOPS per process and the median ratio per shape."""
import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

SHAPES = [(3072, 3072, 3072), (4096, 4096, 4096), (8192, 8192, 8192), (8191, 2049, 4095), (4095, 4097, 4093)]
ROOT = Path(__file__).resolve().parents[3]


def child() -> None:
    sys.path.insert(0, str(ROOT))
    import matmul_opt

    rows = {}
    for M, N, K in SHAPES:
        for kernel in ("wgmma_3xtf32", "cublas"):
            ms = matmul_opt.benchmark(kernel, M, N, K, warmup=3, repetitions=10).ms
            rows[f"{kernel} {M}x{N}x{K}"] = 2 * M * N * K / (ms * 1e9)
    print(json.dumps(rows))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    results = {"before": [], "after": []}
    for _ in range(args.rounds):
        for label in ("before", "after", "after", "before"):
            env = dict(os.environ, MATMUL_OPT_LIBRARY=str(Path(getattr(args, label)).resolve()))
            out = subprocess.run([sys.executable, __file__, "--child"], env=env, capture_output=True, text=True,
                                 check=True).stdout
            results[label].append(json.loads(out))
            print(label, " ".join(f"{k}={v:.1f}" for k, v in results[label][-1].items()), flush=True)
    print("median TFLOPS before / after (ratio):")
    for key in results["before"][0]:
        b = statistics.median(r[key] for r in results["before"])
        a = statistics.median(r[key] for r in results["after"])
        print(f"  {key:<28} {b:7.1f} / {a:7.1f}  ({a / b:.3f})")
    return 0


if __name__ == "__main__":
    if "--child" in sys.argv:
        child()
    else:
        sys.exit(main())
