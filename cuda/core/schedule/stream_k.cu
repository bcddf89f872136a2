#include "core/schedule/stream_k.h"

namespace gemm {

namespace {

constexpr int kMinIterations = 8;
constexpr int kMaxPiecesPerTile = 4;

}  // namespace

StreamKSchedule plan_stream_k(int64_t tiles, int k_tiles, int resident_blocks, int tail_pieces, int* grid) {
    int64_t sk_tiles = tiles % resident_blocks;
    if (tail_pieces == 0 && sk_tiles != 0 && tiles >= resident_blocks && 2 * sk_tiles < resident_blocks)
        sk_tiles += resident_blocks;
    StreamKSchedule s{tiles - sk_tiles, sk_tiles * k_tiles, k_tiles, 0};
    int64_t sk_blocks = sk_tiles * (tail_pieces < k_tiles ? tail_pieces : k_tiles);
    if (tail_pieces == 0) {
        sk_blocks = s.sk_iters / kMinIterations;
        if (sk_blocks > sk_tiles * kMaxPiecesPerTile) sk_blocks = sk_tiles * kMaxPiecesPerTile;
        if (sk_blocks > resident_blocks) sk_blocks = resident_blocks;
        if (sk_blocks < 1 && s.sk_iters > 0) sk_blocks = 1;
    }
    s.sk_blocks = int(sk_blocks);
    *grid = int(s.dp_tiles) + s.sk_blocks;
    return s;
}

}  // namespace gemm
