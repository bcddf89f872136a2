// The tail reduction of a persistent schedule whose last wave is cut into K pieces (host interface; the kernel is in
// tail_reduce.cu).
#pragma once

#include "core/schedule/persistent_tiles.cuh"

namespace gemm {

// For every tail tile t of s (tiles [s.dp_tiles, s.tiles()), rasterised as the schedule walks them): the sum over
// its K pieces i < s.tail_splits, in piece order (deterministic), of the dense bm x bn tiles at
// pieces + (i * s.tail_tiles() + t) * bm * bn, stored into C where the tile lies in the M x N matrix. pieces is
// 16-byte aligned and bn a multiple of 4. transposed: s schedules C's transpose; the pieces are dense bn x bm tiles
// of C itself (bm a multiple of 4), stored where they lie in C, N x M.
mm_status launch_tail_reduce(const float* pieces, const PersistentSchedule& s, int bm, int bn, float* C, int64_t ldc,
                             cudaStream_t stream, bool transposed = false);

}  // namespace gemm
