// The tuner's C entry points (matmul.h): best's configurations by index, an override of its choice, where a cut's
// edges run, whether split-K may add slices within a cluster, an override of wgmma_tf32's tile width and path, and
// one of best_fp32_accurate's choice.
#include "core/schedule/split_k.h"
#include "kernels/best.h"
#include "kernels/by_precision.h"
#include "kernels/wgmma_tf32.h"
#include "matmul.h"

namespace {

// A process-wide switch: value 0 or 1, handed to set as a bool; anything else fails, naming the entry point and
// what each value means.
mm_status set_switch(const char* entry_point, int value, const char* meaning, void (*set)(bool)) {
    if (value != 0 && value != 1)
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "%s(%d): pass %s", entry_point, value, meaning);
    set(value == 1);
    return MM_OK;
}

}  // namespace

extern "C" int mm_best_config_count(void) { return best::config_count(); }

extern "C" mm_status mm_best_config_name(int config, const char** name) {
    if (config < 0 || config >= best::config_count())
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "config %d is out of range [0, %d)", config, best::config_count());
    *name = best::config(config).name;
    return MM_OK;
}

extern "C" mm_status mm_best_force(int config, int splits) {
    if (config < -1 || config >= best::config_count() || splits < 0 || splits > 65535)
        return mm_fail(MM_ERR_INVALID_ARGUMENT,
                       "mm_best_force(%d, %d): need -1 <= config < %d and 0 <= splits <= 65535 (0: the split-K rule's)",
                       config, splits, best::config_count());
    best::force(config, splits);
    return MM_OK;
}

extern "C" mm_status mm_best_edges_beside(int allowed) {
    return set_switch("mm_best_edges_beside", allowed, "1 (beside the bulk) or 0 (after it)", best::edges_beside);
}

extern "C" mm_status mm_split_k_sums_in_launch(int allowed) {
    return set_switch("mm_split_k_sums_in_launch", allowed, "1 (allowed) or 0 (never)", gemm::allow_sums_in_launch);
}

extern "C" mm_status mm_wgmma_tf32_force(int width, int k_major_transpose, int split_tail) {
    const auto flag = [](int v) { return v == 0 || v == 1; };
    if ((width != 0 && !wgmma_tf32::is_width(width)) || !flag(k_major_transpose) || !flag(split_tail))
        return mm_fail(MM_ERR_INVALID_ARGUMENT,
                       "mm_wgmma_tf32_force(%d, %d, %d): width 0 (the rule's) or one of 8, 16, 24, 32, 64, 128, 256; "
                       "k_major_transpose and split_tail 0 or 1",
                       width, k_major_transpose, split_tail);
    wgmma_tf32::force(width, k_major_transpose == 1, split_tail == 1);
    return MM_OK;
}

extern "C" mm_status mm_fp32_accurate_force_ffma(int on) {
    return set_switch("mm_fp32_accurate_force_ffma", on, "1 (off the tensor cores) or 0 (the table's choice)",
                      by_precision::force_fp32_ffma);
}
