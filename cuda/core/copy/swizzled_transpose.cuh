// A shared-memory transform (device): an operand tile that the copy engine left as stored (R rows of BK floats,
// K across the rows) and swizzled in a ring slot, rewritten K-major (t[k][r], rows of R + 4 floats) for the FFMA
// warp tile. The bulk-tensor mainloop applies it to A for op_a = MM_OP_N and to B for op_b = MM_OP_T.
//
// The copy engine cannot transpose 4-byte elements, so the tile lands as stored (rows of BK floats, with the 64-
// or 128-byte swizzle: chunk c of row r is stored at chunk c ^ f(r)). Read straight from that layout, a thread's
// operands at one k would all come from the same component of one float4 per row, i.e. the same register-bank
// position. Instead every thread transposes one or more 4x4 blocks per tile (4 LDS.128 + 4 STS.128 each): load()
// brings them into registers, store() writes them transposed, so that a kernel can overlap the two with FMAs.
#pragma once

#include <cstdint>

#include "core/unroll.cuh"

namespace gemm {

template <int R, int BK, int kThreads>
class SwizzledTranspose {
  public:
    static constexpr int kRowBytes = BK * 4;  // one stored row in the ring (= the swizzle span)
    static constexpr int kSwizzleMask = kRowBytes / 16 - 1;
    static constexpr int S = R + 4;           // row stride of the K-major buffer, in floats
    static constexpr int kFloats = BK * S;    // one K-major buffer
    // (R/4) x (BK/4) blocks of 4 rows x 4 k, kBlocksPerThread per thread.
    static constexpr int kBlocks = (R / 4) * (BK / 4);
    static constexpr int kBlocksPerThread = kBlocks / kThreads;

    static constexpr bool valid() {
        return (kRowBytes == 64 || kRowBytes == 128) && BK % 16 == 0 && kBlocks % kThreads == 0 && kBlocksPerThread >= 1;
    }

    // Thread tid's blocks of the tile at `src` (a ring slot) into registers.
    __device__ void load(const uint8_t* src, int tid) {
#pragma unroll
        for (int p = 0; p < kBlocksPerThread; ++p) {
            int q, ch;
            block_coords(tid + p * kThreads, q, ch);
#pragma unroll
            for (int r = 0; r < 4; ++r) {
                const int row = 4 * q + r;
                const int swizzled = ch ^ (((row * kRowBytes) >> 7) & kSwizzleMask);
                in_transit_[p][r] = *reinterpret_cast<const float4*>(src + row * kRowBytes + 16 * swizzled);
            }
        }
    }

    // The blocks load() brought, transposed into the K-major buffer `dst`.
    __device__ void store(float* dst, int tid) const {
#pragma unroll
        for (int p = 0; p < kBlocksPerThread; ++p) {
            int q, ch;
            block_coords(tid + p * kThreads, q, ch);
#pragma unroll
            for (int j = 0; j < 4; ++j)
                *reinterpret_cast<float4*>(dst + (4 * ch + j) * S + 4 * q) =
                    make_float4(f4_get(in_transit_[p][0], j), f4_get(in_transit_[p][1], j),
                                f4_get(in_transit_[p][2], j), f4_get(in_transit_[p][3], j));
        }
    }

  private:
    // Block b covers rows 4q..4q+3 and 16-byte chunk c (k = 4c..4c+3) of the tile. The 8 threads of a quarter
    // warp take c's low two bits from b%4 and q's parity from (b/4)%2, so their 8 reads hit 8 different
    // swizzled chunks (no bank conflicts on the ring side).
    __device__ static void block_coords(int b, int& q, int& c) {
        const int u = b % 8, hi = b / 8;
        constexpr int kChunkHighs = BK / 16;  // chunks = 4 * kChunkHighs
        c = (u & 3) + 4 * (hi % kChunkHighs);
        q = 2 * (hi / kChunkHighs) + ((u >> 2) & 1);
    }

    float4 in_transit_[kBlocksPerThread][4];  // [block][row]: 4 k each
};

}  // namespace gemm
