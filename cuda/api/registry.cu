#include "api/registry.h"

#include <cstring>
#include <string>

// Each row's launcher and requirement, defined by the kernel's file.
#define MM_KERNEL(name, arithmetic, description, launcher, requirement) \
    mm_status launcher(const GemmArgs&, cudaStream_t);                    \
    mm_status requirement();
#include "kernels.def"
#undef MM_KERNEL

namespace {

const KernelEntry kTable[] = {
#define MM_KERNEL(name, arithmetic, description, launcher, requirement) \
    {#name, description, launcher, requirement, MM_ARITHMETIC_##arithmetic, false},
#define MM_KERNEL_ALL_OPS(name, arithmetic, description, launcher, requirement) \
    {#name, description, launcher, requirement, MM_ARITHMETIC_##arithmetic, true},
#include "kernels.def"
#undef MM_KERNEL_ALL_OPS
#undef MM_KERNEL
};

constexpr int kCount = sizeof(kTable) / sizeof(kTable[0]);

}  // namespace

int registry_size() { return kCount; }

const KernelEntry* registry_at(int index) { return index >= 0 && index < kCount ? &kTable[index] : nullptr; }

const KernelEntry* registry_find(const char* name) {
    if (name != nullptr) {
        for (const KernelEntry& entry : kTable) {
            if (std::strcmp(entry.name, name) == 0) return &entry;
        }
    }
    std::string valid;
    for (const KernelEntry& entry : kTable) valid += (valid.empty() ? "" : ", ") + std::string(entry.name);
    mm_fail(MM_ERR_UNKNOWN_KERNEL, "unknown kernel '%s'; valid kernels: %s", name ? name : "(null)", valid.c_str());
    return nullptr;
}

// The requirement of kernels that run wherever CUDA does.
mm_status requires_nothing() { return MM_OK; }

mm_status launch_kernel(const KernelEntry& entry, const GemmArgs& g, cudaStream_t stream) {
    // 2^18 rows need at most 65535 row tiles for any tile height >= 4, and keep 16-byte alignment of the
    // slab's first row (for op_a = MM_OP_T, its first column) whenever the whole matrix has it.
    constexpr int kSlabRows = 1 << 18;
    for (int row = 0; row < g.M; row += kSlabRows) {
        GemmArgs slab = g;
        slab.M = g.M - row < kSlabRows ? g.M - row : kSlabRows;
        slab.A = g.A + int64_t(row) * (g.op_a == MM_OP_N ? g.lda : 1);  // row `row` of op(A)
        slab.C = g.C + int64_t(row) * g.ldc;
        mm_status status = entry.launch(slab, stream);
        if (status != MM_OK) return status;
    }
    return MM_OK;
}
