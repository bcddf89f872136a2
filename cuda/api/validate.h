// Argument checks shared by the entry points: all of them run before the GPU is touched.
#pragma once

#include "api/registry.h"

// MM_ERR_NO_DEVICE with the driver's reason when no CUDA device can be used.
mm_status require_device();

mm_status check_dimension(const char* name, int64_t value);

// MM_ERR_UNKNOWN_KERNEL for a null entry; then the device and the kernel's requirement.
mm_status ready_to_run(const KernelEntry* entry);

// Checks the op flags, dimensions, leading dimensions (of the stored matrices), pointers and that C overlaps neither
// A nor B, then ready_to_run.
mm_status validate_gemm(const KernelEntry* entry, const mm_gemm_problem& p);

