// The override of best_fp32_accurate's choice, for the tuner's C entry points (api/tuning.cu).
#pragma once

namespace by_precision {

// While on, best_fp32_accurate runs every product off the tensor cores, as it does below its thresholds (pairwise or
// best): the tuner times that choice against the tensor-core kernels to place the thresholds.
void force_fp32_ffma(bool on);

}  // namespace by_precision
