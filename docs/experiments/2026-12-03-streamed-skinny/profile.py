"""One product per shape through the skinny kernel's streamed schedule, for Nsight Compute (GPU needed):

    ncu --clock-control none --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
sm__throughput.avg.pct_of_peak_sustained_elapsed python3 profile.py 8x4096x4096 9000x24x2000
"""
import sys

import torch

from matmul_opt import _library
from matmul_opt.tune import config_names


def main():
    lib = _library.library()
    _library.check(lib.mm_best_force(config_names().index("skinny_streamed"), 1))
    stream = torch.cuda.current_stream().cuda_stream
    for shape in sys.argv[1:]:
        M, N, K = map(int, shape.split("x"))
        A = torch.rand(M, K, device="cuda")
        B = torch.rand(K, N, device="cuda")
        C = torch.empty(M, N, device="cuda")
        _library.check(lib.mm_gemm_async(b"best", 0, 0, M, N, K, 1.0, A.data_ptr(), K, B.data_ptr(), N, 0.0,
                                         C.data_ptr(), N, stream))
        torch.cuda.synchronize()
    _library.check(lib.mm_best_force(-1, 1))


if __name__ == "__main__":
    main()
