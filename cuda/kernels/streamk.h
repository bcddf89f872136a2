// The configurations of the streamk kernel (streamk.cu), for best.
#pragma once

#include "core/config.h"

namespace streamk {

extern const gemm::ConfigDesc k128x256x32;       // 1 block per SM: stream-K over one block per SM
extern const gemm::ConfigDesc k128x128x16;       // tma's 128x128x16 tile, 2 blocks per SM
extern const gemm::ConfigDesc k128x256x32Tail3;  // every tile of the ragged last wave in 3 K pieces

}  // namespace streamk
