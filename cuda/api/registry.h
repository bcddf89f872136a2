// The kernel table built from kernels.def (host only).
#pragma once

#include "core/problem.h"

// MM_OK when the kernel can run here; otherwise records why and returns the status.
typedef mm_status (*Requirement)(void);

struct KernelEntry {
    const char* name;
    const char* description;
    GemmLauncher launch;
    Requirement requirement;
    mm_arithmetic arithmetic;
    bool all_ops;  // takes every combination of op flags as stored (MM_KERNEL_ALL_OPS); else row-major A, B only
};

int registry_size();
const KernelEntry* registry_at(int index);
// nullptr (with MM_ERR_UNKNOWN_KERNEL recorded, listing the valid names) when no kernel has that name.
const KernelEntry* registry_find(const char* name);

// Enqueues entry's kernel for C = op(A)·op(B) (M, N, K >= 1; op = T only where entry.all_ops). Problems taller than one launch's grid can cover
// (gridDim.y <= 65535 row tiles) are cut into slabs of rows, each an independent product.
mm_status launch_kernel(const KernelEntry& entry, const GemmArgs& g, cudaStream_t stream);
