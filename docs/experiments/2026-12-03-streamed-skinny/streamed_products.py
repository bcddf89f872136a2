"""A few products through the skinny kernel's streamed schedule (best forced to skinny_streamed), every op
combination, checked against float64: the workload the sanitizers run over it (GPU needed).

    compute-sanitizer --tool memcheck python3 streamed_products.py
"""
import numpy as np
import torch

from matmul_opt import _library
from matmul_opt.accuracy import error_scale, relative_error, tolerance
from matmul_opt.tune import config_names

SHAPES = [(3, 1000, 40), (24, 1028, 100), (13, 5000, 36), (700, 5, 2500)]


def main():
    lib = _library.library()
    _library.check(lib.mm_best_force(config_names().index("skinny_streamed"), 1))
    stream = torch.cuda.current_stream().cuda_stream
    worst = 0.0
    for M, N, K in SHAPES:
        for op_a in (0, 1):
            for op_b in (0, 1):
                g = torch.Generator(device="cuda").manual_seed(M + N + K)
                A = torch.rand(*((M, K) if op_a == 0 else (K, M)), device="cuda", generator=g) * 2 - 1
                B = torch.rand(*((K, N) if op_b == 0 else (N, K)), device="cuda", generator=g) * 2 - 1
                C = torch.full((M, N), float("nan"), device="cuda")
                _library.check(lib.mm_gemm_async(b"best", op_a, op_b, M, N, K, 1.0, A.data_ptr(), A.stride(0),
                                                 B.data_ptr(), B.stride(0), 0.0, C.data_ptr(), C.stride(0), stream))
                torch.cuda.synchronize()
                a = (A if op_a == 0 else A.t()).double().cpu().numpy()
                b = (B if op_b == 0 else B.t()).double().cpu().numpy()
                error = relative_error(C.double().cpu().numpy(), a @ b, error_scale(a, b))
                assert error <= tolerance("fp32", K), (M, N, K, op_a, op_b, error)
                worst = max(worst, error)
    _library.check(lib.mm_best_force(-1, 1))
    print(f"streamed products correct, worst relative error {worst:.2e}")


if __name__ == "__main__":
    main()
