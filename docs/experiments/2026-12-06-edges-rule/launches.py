"""The kernels of one call of `best` with a cut's edges beside the bulk (beside=1) and after it (beside=0), as
PyTorch's profiler trace records them: stream, start and duration in microseconds from the first kernel's start,
grid, block, registers per thread, shared memory and blocks per SM. Operands in the benchmark's layout (rows padded
to 4 floats); three calls per mode after five warm-ups, the last printed. The profiler's launch overhead stretches
the gaps between kernels: products under about 50 us time differently under it than in sweep.py.

    python3 launches.py 6145x129x5003 [...]
"""
import ctypes
import json
import sys

import torch

from matmul_opt._library import library, check


def padded(n):
    return (n + 3) // 4 * 4


def main():
    lib = library()
    for shape in sys.argv[1:]:
        M, N, K = (int(x) for x in shape.split("x"))
        A = torch.rand(M, padded(K), device="cuda") * 2 - 1
        B = torch.rand(K, padded(N), device="cuda") * 2 - 1
        C = torch.empty(M, padded(N), device="cuda")
        stream = torch.cuda.current_stream()

        def call():
            check(lib.mm_gemm_async(b"best", 0, 0, M, N, K, 1.0, ctypes.c_void_p(A.data_ptr()), A.shape[1],
                                    ctypes.c_void_p(B.data_ptr()), B.shape[1], 0.0, ctypes.c_void_p(C.data_ptr()),
                                    C.shape[1], ctypes.c_void_p(stream.cuda_stream)))

        for beside in (1, 0):
            check(lib.mm_best_edges_beside(beside))
            for _ in range(5):
                call()
            torch.cuda.synchronize()
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as profile:
                for _ in range(3):
                    call()
                    torch.cuda.synchronize()
            profile.export_chrome_trace("/tmp/trace.json")
            events = [e for e in json.load(open("/tmp/trace.json"))["traceEvents"]
                      if e.get("cat") == "kernel"]
            calls = len(events) // 3
            last = sorted(events, key=lambda e: e["ts"])[-calls:]
            t0 = last[0]["ts"]
            for e in last:
                a = e.get("args", {})
                print(f"{shape} beside={beside} stream={a.get('stream')} start={e['ts'] - t0:.1f} us={e['dur']:.1f} "
                      f"grid={a.get('grid')} block={a.get('block')} regs={a.get('registers per thread')} "
                      f"smem={a.get('shared memory')} per_sm={a.get('blocks per SM')} {e['name'][:100]}", flush=True)
        check(lib.mm_best_edges_beside(1))


if __name__ == "__main__":
    main()
