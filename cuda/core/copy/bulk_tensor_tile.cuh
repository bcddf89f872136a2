// Copies one K tile of A and B into shared memory with two bulk tensor copies (device): the copy stage of the
// bulk-tensor mainloop. A lands row-major in a box of BM rows x BK floats, with the copy engine's swizzle of
// rows of BK floats (the tensor map says which: copy/tensor_map.h); B in a box of BK rows x BN floats.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "core/copy/bulk_tensor.cuh"
#include "core/copy/cp_async.cuh"

namespace gemm {

template <int BM, int BN, int BK>
struct BulkTensorTileCopy {
    static constexpr int kABytes = BM * BK * 4, kBBytes = BK * BN * 4, kBytes = kABytes + kBBytes;

    const CUtensorMap* a_map;
    const CUtensorMap* b_map;

    // One thread: K tile kt of the block tile at (m0, n0) into slot `slot` of the rings a_ring / b_ring (slots
    // of kABytes / kBBytes), completing on `bar`, which must expect kBytes in the phase this completes.
    __device__ void issue(uint32_t bar, uint8_t* a_ring, uint8_t* b_ring, int slot, int kt, int m0, int n0) const {
        bulk_tensor_load_2d(smem_addr(a_ring + slot * kABytes), a_map, bar, kt * BK, m0);
        bulk_tensor_load_2d(smem_addr(b_ring + slot * kBBytes), b_map, bar, n0, kt * BK);
    }
};

}  // namespace gemm
