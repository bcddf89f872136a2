// The pipelined configurations: the cp.async FFMA kernel (core/mainloop/cp_async_ffma.cuh) at the tiles that the
// pipelined rung, splitk, tma and streamk (as their fallback), skinny (as its fallback) and best run.
#include "core/configs/pipelined.h"

#include "core/configs/pipelined_tiles.h"
#include "core/mainloop/cp_async_ffma.cuh"

using gemm::cp_async_ffma::describe;
using namespace pipelined::tiles;

namespace pipelined {

constinit const gemm::ConfigDesc k128x256x16 = describe<kTile128x256x16>("pipelined 128x256x16");
constinit const gemm::ConfigDesc k128x128x16 = describe<kTile128x128x16>("pipelined 128x128x16");
constinit const gemm::ConfigDesc k128x64x16 = describe<kTile128x64x16>("pipelined 128x64x16");
constinit const gemm::ConfigDesc k64x64x16 = describe<kTile64x64x16>("pipelined 64x64x16");
constinit const gemm::ConfigDesc k32x128x16 = describe<kTile32x128x16>("pipelined 32x128x16");
constinit const gemm::ConfigDesc k128x32x16 = describe<kTile128x32x16>("pipelined 128x32x16");
constinit const gemm::ConfigDesc k64x128x16 = describe<kTile64x128x16>("pipelined 64x128x16");

}  // namespace pipelined
