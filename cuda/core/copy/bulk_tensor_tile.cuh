// Copies one K tile of A and B into shared memory with two bulk tensor copies (device): the copy stage of the
// bulk-tensor mainloop. Each operand lands as stored, in a box of its stored rows (copy/tensor_map.h describes
// both): A for op_a = MM_OP_N in BM rows x BK floats, with the copy engine's swizzle of rows of BK floats, and for
// MM_OP_T in BK rows x BM floats; B for op_b = MM_OP_N in BK rows x BN floats, for MM_OP_T in BN rows x BK floats,
// swizzled like A's MM_OP_N box.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "core/copy/bulk_tensor.cuh"
#include "core/copy/cp_async.cuh"

namespace gemm {

template <int BM, int BN, int BK, class OpA, class OpB>
struct BulkTensorTileCopy {
    static constexpr int kABytes = BM * BK * 4, kBBytes = BK * BN * 4, kBytes = kABytes + kBBytes;

    const CUtensorMap* a_map;
    const CUtensorMap* b_map;

    // One thread: K tile kt of the block tile at (m0, n0) into slot `slot` of the rings a_ring / b_ring (slots
    // of kABytes / kBBytes), completing on `bar`, which must expect kBytes in the phase this completes. A box's
    // coordinates are (inner, outer) of the matrix as stored.
    __device__ void issue(uint32_t bar, uint8_t* a_ring, uint8_t* b_ring, int slot, int kt, int m0, int n0) const {
        if constexpr (OpA::kT)
            bulk_tensor_load_2d(smem_addr(a_ring + slot * kABytes), a_map, bar, m0, kt * BK);
        else
            bulk_tensor_load_2d(smem_addr(a_ring + slot * kABytes), a_map, bar, kt * BK, m0);
        if constexpr (OpB::kT)
            bulk_tensor_load_2d(smem_addr(b_ring + slot * kBBytes), b_map, bar, kt * BK, n0);
        else
            bulk_tensor_load_2d(smem_addr(b_ring + slot * kBBytes), b_map, bar, n0, kt * BK);
    }
};

}  // namespace gemm
