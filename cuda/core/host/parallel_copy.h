// Host-to-host copies of pitched row blocks, spread over a process-wide set of CPU threads: one thread copies
// NumPy data into pinned staging memory at a fraction of what the memory system gives several.
#pragma once

#include <cstddef>

// Copies `rows` rows of `row_bytes` bytes from `src` (rows `src_pitch` bytes apart) to `dst` (`dst_pitch`
// apart) and returns when it is done. Copies of a few hundred KiB or more are cut into pieces that the copy
// threads and the calling thread share; smaller ones run on the calling thread alone.
void parallel_copy_rows(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t row_bytes,
                        size_t rows);
