// best's shape rules that other dispatchers ask (by_precision.cu), its configurations and the override of its choice,
// for the tuner's C entry points (api/tuning.cu). What a panel is (has_short_side) is a fact of the problem's shape,
// which rungs ask too: core/problem.h.
#pragma once

#include <cstdint>

#include "core/config.h"

namespace best {

// Whether best's long-K rule takes g: a long K (from best_table's kLongKMin) over a small C (at most kLongKMaxMnPerSm
// outputs per SM on sms SMs).
bool takes_long_k(const GemmArgs& g, int sms);

// Whether best's small-side rule gives g to the skinny kernel: a small side of at most best_table's kSkinnyMaxRows
// rows or kSkinnyMaxColumns columns that the kernel takes, or one its bulk mainloop streams on sms SMs. (A long K
// over a C that one longk tile covers goes to the long-K rule first.)
bool streams_small_side(const GemmArgs& g, int sms);

// The configurations best chooses among, in a fixed order (the tuner's indices).
int config_count();
const gemm::ConfigDesc& config(int index);  // 0 <= index < config_count()

// Replaces the heuristic's choice by config(index) over `splits` K slices (0: as many as the split-K rule gives
// it); index -1 restores the heuristic.
void force(int index, int splits);

// Whether a ragged cut's edges run beside the bulk on a side stream (true, the default) or after it on the
// caller's stream: for the measurements that compare the two, which give the same bits.
void edges_beside(bool allowed);

}  // namespace best
