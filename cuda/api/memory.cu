// The C entry points of the memory the library keeps between calls: how much it holds (mm_memory_held) and freeing
// what no call uses (mm_release_memory). The keepers are the cache of freed pinned blocks (pinned_buffer.h), the
// host path's idle staging sets (host_staging.h) and the device pools (device_buffer.h).
#include <initializer_list>

#include "api/host_staging.h"
#include "core/device_buffer.h"
#include "core/host/pinned_buffer.h"
#include "matmul.h"

extern "C" {

mm_status mm_memory_held(mm_held_memory* held) {
    if (held == nullptr) return mm_fail(MM_ERR_INVALID_ARGUMENT, "held is a null pointer");
    *held = {};
    held->pinned_cached = cached_pinned_bytes();
    held->pinned_staging = HostStaging::idle_pinned_bytes();
    return device_pools_idle_bytes(&held->device_pooled);
}

mm_status mm_release_memory(void) {
    // Every part is freed, whatever another's status; the status is the last failure's, the one whose message
    // mm_last_error holds.
    mm_status status = MM_OK;
    for (const mm_status st : {HostStaging::destroy_idle(), free_cached_pinned_blocks(), trim_device_pools()})
        if (st != MM_OK) status = st;
    return status;
}

}  // extern "C"
