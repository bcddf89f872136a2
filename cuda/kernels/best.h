// best's configurations and the override of its choice, for the tuner's C entry points (api/tuning.cu).
#pragma once

#include "core/config.h"

namespace best {

// The configurations best chooses among, in a fixed order (the tuner's indices).
int config_count();
const gemm::ConfigDesc& config(int index);  // 0 <= index < config_count()

// Replaces the heuristic's choice by config(index) over `splits` K slices (0: as many as the split-K rule gives
// it); index -1 restores the heuristic.
void force(int index, int splits);

}  // namespace best
