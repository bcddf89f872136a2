"""One product of a best configuration (forced) or of cuBLAS, for Nsight Compute (GPU needed).

    ncu -k regex:'ffma|gemm' --launch-skip 1 --launch-count 1 --set full -o REPORT \
        python3 profile.py M N K CONFIG [SPLITS]

CONFIG is one of best's configuration names (tune.config_names(); forced with SPLITS slices, 0 for the split-K
rule's) or 'cublas'. mm_benchmark runs a warm-up launch, then the timed one, on device-resident random inputs.
"""
import sys

from matmul_opt import benchmark
from matmul_opt._library import check, library
from matmul_opt.tune import config_names


def main() -> int:
    M, N, K = (int(x) for x in sys.argv[1:4])
    config = sys.argv[4]
    splits = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    if config == "cublas":
        print(f"{M}x{N}x{K} cublas {benchmark('cublas', M, N, K, warmup=1, repetitions=1).ms * 1e3:.1f} us")
        return 0
    lib = library()
    check(lib.mm_best_force(config_names().index(config), splits))
    try:
        ms = benchmark("best", M, N, K, warmup=1, repetitions=1).ms
    finally:
        check(lib.mm_best_force(-1, 1))
    print(f"{M}x{N}x{K} {config} splits {splits} {ms * 1e3:.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
