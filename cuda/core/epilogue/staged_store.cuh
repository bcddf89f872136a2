// The staged epilogue: the block's tile goes through shared memory on its way to C (device).
//
// Direct float4 stores need each row's 4 accumulators in 4 consecutive registers, which fixes every
// accumulator's register-bank parity to that of the B operand it is multiplied with (B arrives by LDS.128
// too); in a short k loop nvcc then reads both from one bank. Writing the accumulators to shared memory one by
// one leaves nvcc free to place them: each thread writes its accumulators to Storage, the block meets at a
// barrier, and the tile is copied out to C as float4 rows. Storage is the epilogue's own; a kernel places it
// in a union with its mainloop's shared memory, which is free once the last K tile has been read.
#pragma once

#include <cstdint>

#include "core/epilogue/direct_store.cuh"

namespace gemm {

template <int BM, int BN, int kThreads>
struct StagedStore {
    static constexpr int kStride = BN + 4;  // floats per staged row

    struct Storage {
        float tile[BM * kStride];
    };

    // Writes the block tile at c_tile (rows/columns of C left: m_rem, n_rem > 0; rows 16-byte aligned) from
    // each thread's accumulators, laid out as Warp says with the thread's origin (row0, col0). Every thread of
    // the block calls it; it contains a block barrier.
    template <class Warp>
    __device__ static void store(const typename Warp::Acc& acc, Storage& storage, int row0, int col0, float* c_tile,
                                 int64_t ldc, int m_rem, int n_rem) {
        float* const staged = storage.tile;
#pragma unroll
        for (int r = 0; r < Warp::kTM; ++r)
#pragma unroll
            for (int q = 0; q < Warp::kTN; ++q)
                staged[(row0 + Warp::row_offset(r)) * kStride + col0 + Warp::col_offset(q)] = acc[r][q];
        __syncthreads();
        constexpr int kQuadsPerRow = BN / 4;
#pragma unroll 4
        for (int q = threadIdx.x; q < BM * kQuadsPerRow; q += kThreads) {
            const int row = q / kQuadsPerRow, col = 4 * (q % kQuadsPerRow);
            if (row < m_rem)
                store4<true>(c_tile + int64_t(row) * ldc + col, n_rem - col,
                             *reinterpret_cast<const float4*>(staged + row * kStride + col));
        }
    }
};

}  // namespace gemm
