"""Ragged-edge cuts run apart from their bulk: what the edges of a cut cost where they run after the bulk on one
stream (what `best` does), beside the bulk on a second stream, or before it there. A product M x N x K in the
benchmark's layout (rows padded to 4 floats) is cut by hand at rows Mb and columns Nb: the bulk Mb x Nb by `best`,
the row edge (M - Mb) x N and the column edge Mb x (N - Nb) by `skinny` (none where empty), each through
mm_gemm_async. CUDA events on the first stream, rounds of 20 products, median of 15 rounds.

    python3 edges.py 1153x1153x1153:1152x1152 [...]
"""
import ctypes
import statistics
import sys

import torch

from matmul_opt._library import library


def padded(n):
    return (n + 3) // 4 * 4


def enqueue(kernel, M, N, K, A, lda, B, ldb, C, ldc, stream):
    status = library().mm_gemm_async(kernel.encode(), 0, 0, M, N, K, 1.0, ctypes.c_void_p(A), lda, ctypes.c_void_p(B),
                                     ldb, 0.0, ctypes.c_void_p(C), ldc, ctypes.c_void_p(stream.cuda_stream))
    assert status == 0, library().mm_last_error()


def main():
    main_stream, side, side2 = torch.cuda.Stream(), torch.cuda.Stream(), torch.cuda.Stream()
    print("product variant us")
    for spec in sys.argv[1:]:
        shape, cut = spec.split(":")
        M, N, K = (int(x) for x in shape.split("x"))
        Mb, Nb = (int(x) for x in cut.split("x"))
        A = torch.rand(M, padded(K), device="cuda") * 2 - 1
        B = torch.rand(K, padded(N), device="cuda") * 2 - 1
        C = torch.empty(M, padded(N), device="cuda")
        lda, ldb, ldc = A.shape[1], B.shape[1], C.shape[1]
        a, b, c = A.data_ptr(), B.data_ptr(), C.data_ptr()

        def whole(kernel):
            return lambda: enqueue(kernel, M, N, K, a, lda, b, ldb, c, ldc, main_stream)

        def bulk(s):
            enqueue("best", Mb, Nb, K, a, lda, b, ldb, c, ldc, s)

        def row_edge(s):
            if M > Mb:
                enqueue("skinny", M - Mb, N, K, a + 4 * Mb * lda, lda, b, ldb, c + 4 * Mb * ldc, ldc, s)

        def column_edge(s):
            if N > Nb:
                enqueue("skinny", Mb, N - Nb, K, a, lda, b + 4 * Nb, ldb, c + 4 * Nb, ldc, s)

        def forked(on_side):
            fork, join = torch.cuda.Event(), torch.cuda.Event()

            def run():
                fork.record(main_stream)
                side.wait_event(fork)
                if on_side == "edges":
                    row_edge(side)
                    column_edge(side)
                    bulk(main_stream)
                elif on_side == "edges-after":
                    bulk(main_stream)
                    row_edge(side)
                    column_edge(side)
                else:  # each edge on its own stream
                    side2.wait_event(fork)
                    row_edge(side)
                    column_edge(side2)
                    bulk(main_stream)
                    join2 = torch.cuda.Event()
                    join2.record(side2)
                    main_stream.wait_event(join2)
                join.record(side)
                main_stream.wait_event(join)
            return run

        variants = {
            "best": whole("best"),
            "cublas": whole("cublas"),
            "bulk-only": lambda: bulk(main_stream),
            "sequential": lambda: (bulk(main_stream), row_edge(main_stream), column_edge(main_stream)),
            "edges-first-beside": forked("edges"),
            "edges-after-beside": forked("edges-after"),
            "edges-apart-beside": forked("two"),
            "edges-only": lambda: (row_edge(main_stream), column_edge(main_stream)),
        }
        times = {name: [] for name in variants}
        for _ in range(3):
            for name, f in variants.items():
                f()
        torch.cuda.synchronize()
        for _ in range(15):
            for name, f in variants.items():
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record(main_stream)
                for _ in range(20):
                    f()
                end.record(main_stream)
                end.synchronize()
                times[name].append(start.elapsed_time(end) / 20 * 1e3)
        for name in variants:
            print(f"{shape} {name} {statistics.median(times[name]):.1f}", flush=True)
        # The forked result matches best's.
        C.fill_(float("nan"))
        forked("edges")()
        torch.cuda.synchronize()
        forked_c = C[:, :N].clone()
        whole("best")()
        torch.cuda.synchronize()
        print(f"{shape} forked==best {bool(torch.equal(forked_c, C[:, :N]))}")


if __name__ == "__main__":
    main()
