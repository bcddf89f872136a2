// ozaki_int8: fp32 accuracy from INT8 tensor cores (the Ozaki scheme II), on the persistent warp-specialised frame.
//
// Technique (Ozaki, Uchino, Imamura 2025; Ootomo, Ozaki, Yokota 2024): each row of op(A) and each column of op(B)
// is scaled by a power of two and rounded to an integer line, so that C_int = A_int · B_int is the product to the
// precision the scaling keeps. C_int is computed exactly as its residues modulo 8 (or 7) pairwise coprime moduli of
// at most 256: each operand's residues fit int8, and each residue product is one INT8 tensor-core product with int32
// sums. The Chinese remainder theorem rebuilds C_int from the residues of each element, as a 64-bit fixed-point
// fraction of the moduli's product, and C is C_int scaled back (core/layout/residues.h: the scaling, the residue
// passes and the rebuild).
//
// Passes: one over each operand for its lines' largest magnitudes, the scaling check's sums of squares along k and
// each line's sum of squares (core/layout/line_survey.h); one that writes its residue matrices K-major (int8, K padded
// to whole K tiles), then every modulus's product in one launch of this file's kernel (its units are the tiles of C
// once per modulus), whose epilogue keeps only the residue of each sum modulo the modulus (one byte per element), and
// the rebuild. A K longer than kChunkK runs as one launch per kChunkK, whose residues the epilogue adds modulo the
// modulus: within a chunk every int32 sum is exact (at most kChunkK products of two int8, each at most 2^14 in
// magnitude).
//
// Scaling: from the lines' norms (Cauchy-Schwarz: every element of C_int at most the product of its row's and its
// column's norms, kept under M / 2, M the moduli's product), so no element wraps whatever the inputs. Lines of
// equal magnitudes keep about 63 - log2 K bits between the two operands, as a worst-case bound would give them;
// lines that a few values dominate, such as magnitudes spread over many octaves, keep up to 62 at any K, which the
// emulation record found keeps them within the fp32 contract at long K, where the worst case does not
// (docs/experiments/2026-12-02-ozaki-emulation.md, 2026-12-03-ozaki-rung.md). Inf, NaN and magnitudes of 2^64 or more
// (gemm::kOzakiLargeMagnitude) are not scaled: they count as zeros in the products and the rows and columns of C
// their lines reach are recomputed in plain fp32 afterwards (core/epilogue/nonfinite_fixup.h), so they come out as
// in NumPy. A line keeps alpha or beta bits below its largest value, so values further below it round away; where
// such values decide C (an operand scaled by a diagonal that the other undoes, or a row [1, 2^-40] against a
// column [2^-40, 1]), the scheme's error passes fp32's. The scaling check (core/layout/scaling_check.h) estimates
// that error from the lines' exponents and the sums of squares along k, and where it is too large the product runs
// as wgmma_3xtf32 instead. Its verdict is also the number of moduli: 7 where C is large enough that cuBLAS fp32
// sums K in one chain, whose error leaves room for the scheme's with one modulus fewer, else 8. The residue passes read
// the verdict on the GPU; the host waits for it, while they run, to choose the product (which a CUDA graph capture
// would not allow: the entry refuses captures).
//
// Composition: the Hopper frame (core/kernel/warp_specialized.cuh) over this file's parts: Producer (the residue
// tiles of A and B of one modulus by bulk tensor copies), Mainloop (wgmma m64n256k32 s32.s8.s8, core/mma/
// wgmma_int8.cuh) and Epilogue (the sums' residues into one byte each), and the schedule gemm::PersistentTiles.
//
// Changes vs wgmma_3xtf32: integer products of residues instead of three TF32 products of split parts; 8 or 7
// products (one per modulus) instead of one kernel with three MMAs per step; no promotion (integer sums are exact); the
// passes over memory: the lines' maxima and norms, the residue matrices (1 byte per value per modulus instead of 8
// bytes per value for the split) and the rebuild of C.
//
// Tile: 128 x 256 x 128 (a K tile of int8 is one 128-byte swizzled row), 4 stages of 48 KiB, 384 threads (one
// producer warpgroup, of which one thread works, and two consumer warpgroups of 64 rows each; setmaxnreg 40 / 232),
// one block per SM.
#include "core/copy/bulk_tensor.cuh"
#include "core/copy/tensor_map.h"
#include "core/device_buffer.h"
#include "core/epilogue/nonfinite_fixup.h"
#include "core/host/readback.h"
#include "core/kernel/warp_specialized.cuh"
#include "core/launch.h"
#include "core/layout/residues.h"
#include "core/layout/scaling_check.h"
#include "core/mma/wgmma_int8.cuh"
#include "core/schedule/persistent_tiles.cuh"

// What computes the products the scaling does not carry at fp32 accuracy: the split keeps each value's own bits,
// whatever the others in its line (kernels/wgmma_3xtf32_sm90a.cu; it runs wherever this rung does).
mm_status launch_wgmma_3xtf32(const GemmArgs& g, cudaStream_t stream);

namespace {

constexpr int kBM = 128, kBN = gemm::kWgmmaN, kBK = gemm::kInt8KMajorBoxK;
constexpr int kChunkK = 1 << 16;  // K of one product: kChunkK * 2^14 < 2^31
constexpr gemm::WarpSpecialized kFrame{.stages = 4, .consumers = 2, .producer_registers = 40,
                                       .consumer_registers = 232};
constexpr int kStages = kFrame.stages;
constexpr int kABytes = kBM * kBK, kBBytes = kBN * kBK;
constexpr int kSteps = kBK / gemm::kWgmmaInt8K;
static_assert(kBM == 64 * kFrame.consumers, "each consumer warpgroup owns 64 rows and every column");
static_assert(kChunkK % kBK == 0, "chunks of whole K tiles");

struct Tiles {
    int8_t a[kStages][kABytes];
    int8_t b[kStages][kBBytes];
};
using Storage = gemm::WarpSpecializedStorage<Tiles, kStages>;
constexpr int kSmemBytes = gemm::kWarpSpecializedSmemBytes<Storage>;
using Ring = gemm::RingPosition<kStages>;

// Every tile of C once per modulus of the first kModuli, modulus by modulus (the tiles of one modulus share its
// residue matrices in L2): a unit's `slice` is its modulus. One launch covers every product, so the ragged last wave
// comes once.
template <int kModuli>
struct ModulusTiles {
    __device__ __forceinline__ static int units(const gemm::PersistentSchedule& s) { return s.tiles() * kModuli; }
    __device__ __forceinline__ static gemm::TileUnit unit(const gemm::PersistentSchedule& s, int u) {
        gemm::TileUnit w = gemm::unit_at<kBM, kBN>(s, u % s.tiles());
        w.slice = u / s.tiles();
        return w;
    }
};

struct Params {
    const CUtensorMap* a_map;  // the residues of op(A), one M x K matrix per modulus stacked along M, K-major
    const CUtensorMap* b_map;  // and of op(B)^T, one N x K matrix per modulus stacked along N
    uint8_t* residues;         // the product's residues, one M x ozaki_product_pitch(N) matrix per modulus
    gemm::OzakiModuli moduli;
    int accumulate;  // add the residues already there (a later K chunk)
    int kt_offset;   // the chunk's first K tile
    gemm::PersistentSchedule schedule;
};

struct Producer {
    static constexpr uint32_t kStageBytes = kABytes + kBBytes;

    __device__ __forceinline__ static void prefetch(const Params& p) {
        gemm::prefetch_tensor_map(p.a_map);
        gemm::prefetch_tensor_map(p.b_map);
    }
    __device__ __forceinline__ static void load(Tiles& tiles, int stage, uint32_t full, const gemm::TileUnit& w,
                                                int kt, const Params& p) {
        // Rows past a matrix's end come from the next modulus's matrix (or are zeros past the last): they reach
        // only rows and columns of the tile beyond C, which the epilogue leaves unwritten.
        const int k = (p.kt_offset + kt) * kBK;
        gemm::bulk_tensor_load_2d(gemm::smem_addr(tiles.a[stage]), p.a_map, full, k, w.slice * p.schedule.M + w.m0);
        gemm::bulk_tensor_load_2d(gemm::smem_addr(tiles.b[stage]), p.b_map, full, k, w.slice * p.schedule.N + w.n0);
    }
};

// A consumer warpgroup's 64 x 256 sums over a unit's K tiles, one K tile's MMAs in flight while the next stage is
// waited for.
class Mainloop {
  public:
    using Accumulators = int32_t[gemm::kWgmmaAccumulators];

    __device__ __forceinline__ explicit Mainloop(int consumer_index) : a_offset_(consumer_index * 64 * kBK) {}

    __device__ __forceinline__ void operator()(Storage& st, Ring& r, const gemm::TileUnit& w) {
        int retiring = -1;
        for (int kt = 0; kt < w.ktiles; ++kt) {
            st.wait_full(r);
            const uint32_t a_rows = gemm::smem_addr(st.tiles.a[r.stage]) + a_offset_;
            const uint32_t b_rows = gemm::smem_addr(st.tiles.b[r.stage]);
            gemm::wgmma_hold(acc_);
            gemm::wgmma_fence();
#pragma unroll
            for (int k = 0; k < kSteps; ++k)
                gemm::wgmma_m64n256k32_s8(acc_, gemm::sw128_k_major_descriptor(a_rows + 32 * k),
                                          gemm::sw128_k_major_descriptor(b_rows + 32 * k), kt > 0 || k > 0);
            gemm::wgmma_commit();
            gemm::wgmma_wait<1>();
            if (retiring >= 0) st.release(retiring);
            retiring = r.stage;
            r.advance();
        }
        gemm::wgmma_wait<0>();
        gemm::wgmma_hold(acc_);
        if (retiring >= 0) st.release(retiring);
    }

    __device__ __forceinline__ const Accumulators& result() const { return acc_; }

  private:
    uint32_t a_offset_;  // the consumer's 64 rows of the A tile: 8 swizzle atoms on
    Accumulators acc_;
};

// Each sum's residue modulo the unit's modulus, in [0, m), one byte per element of C (plus the earlier chunks'
// residue, reduced again). In wgmma's accumulator layout (g = lane / 4, t = lane % 4) a lane holds, per 8 columns j,
// two sums of row g and two of row g + 8 at columns 2t and 2t + 1. A tile wholly inside C (the residues' rows start
// on 4 bytes: gemm::ozaki_product_pitch), of the first K chunk (most tiles) stores 4-byte words: lanes t and t ^ 1
// trade halves, the even lane then holding columns 2t to 2t + 3 of row g and the odd one columns 2t - 2 to 2t + 1 of
// row g + 8. Other tiles store byte by byte.
struct Epilogue {
    __device__ __forceinline__ static void store(const int32_t (&acc)[gemm::kWgmmaAccumulators],
                                                 const gemm::TileUnit& w, int consumer_index, const Params& p) {
        // The unit's modulus, selected rather than indexed, which would put the moduli in local memory.
        gemm::OzakiModulus mod{};
#pragma unroll
        for (int l = 0; l < gemm::kOzakiModuli; ++l)
            if (l == w.slice) mod = p.moduli.modulus[l];
        const int M = p.schedule.M, N = p.schedule.N;
        const int64_t pitch = gemm::ozaki_product_pitch(N);
        uint8_t* const residues = p.residues + int64_t(w.slice) * M * pitch;
        if (!p.accumulate && w.m0 + kBM <= M && w.n0 + kBN <= N)
            store_words(acc, w, consumer_index, mod, residues, pitch);
        else
            store_bytes(acc, w, consumer_index, mod, residues, M, N, pitch, p.accumulate);
    }

  private:
    __device__ __forceinline__ static void store_words(const int32_t (&acc)[gemm::kWgmmaAccumulators],
                                                       const gemm::TileUnit& w, int consumer_index,
                                                       const gemm::OzakiModulus& mod, uint8_t* residues,
                                                       int64_t pitch) {
        const int lane = threadIdx.x % 32, warp = threadIdx.x / 32 % 4;
        const bool odd = lane % 2 != 0;
        const int row = w.m0 + 64 * consumer_index + 16 * warp + lane / 4 + (odd ? 8 : 0);
        uint8_t* const out = residues + row * pitch + w.n0 + 4 * (lane % 4 / 2);
#pragma unroll
        for (int j = 0; j < gemm::kWgmmaAccumulators / 4; ++j) {
            // Selected, not indexed by lane: an index known only at run time would put acc in local memory.
            const int32_t kept0 = odd ? acc[4 * j + 2] : acc[4 * j], kept1 = odd ? acc[4 * j + 3] : acc[4 * j + 1];
            const int32_t sent0 = odd ? acc[4 * j] : acc[4 * j + 2], sent1 = odd ? acc[4 * j + 1] : acc[4 * j + 3];
            const unsigned kept = unsigned(gemm::residue_of(kept0, mod)) | unsigned(gemm::residue_of(kept1, mod)) << 8;
            const unsigned sent = unsigned(gemm::residue_of(sent0, mod)) | unsigned(gemm::residue_of(sent1, mod)) << 8;
            const unsigned got = __shfl_xor_sync(0xffffffffu, sent, 1);
            *reinterpret_cast<unsigned*>(out + 8 * j) = odd ? got | kept << 16 : kept | got << 16;
        }
    }

    __device__ __forceinline__ static void store_bytes(const int32_t (&acc)[gemm::kWgmmaAccumulators],
                                                       const gemm::TileUnit& w, int consumer_index,
                                                       const gemm::OzakiModulus& mod, uint8_t* residues, int M, int N,
                                                       int64_t pitch, int accumulate) {
        const int lane = threadIdx.x % 32, warp = threadIdx.x / 32 % 4;
        const int row = w.m0 + 64 * consumer_index + 16 * warp + lane / 4;
#pragma unroll
        for (int j = 0; j < gemm::kWgmmaAccumulators / 4; ++j) {
            const int col = w.n0 + 8 * j + 2 * (lane % 4);
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int r = row + 8 * h;
                if (r >= M) continue;
#pragma unroll
                for (int c = 0; c < 2; ++c) {
                    if (col + c >= N) continue;
                    uint8_t* const out = residues + r * pitch + col + c;
                    int residue = gemm::residue_of(acc[4 * j + 2 * h + c], mod);
                    if (accumulate) {
                        residue += *out;
                        if (residue >= mod.m) residue -= mod.m;
                    }
                    *out = uint8_t(residue);
                }
            }
        }
    }
};

template <int kModuli>
__global__ void __launch_bounds__(kFrame.threads(), 1)
    ozaki_int8_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                      uint8_t* residues, gemm::OzakiModuli moduli, int accumulate, int kt_offset,
                      gemm::PersistentSchedule s) {
    gemm::warp_specialized<kFrame, Tiles, ModulusTiles<kModuli>, Producer, Mainloop, Epilogue>(
        Params{&a_map, &b_map, residues, moduli, accumulate, kt_offset, s});
}

// The lines' statistics of one call: maxima, non-finite flags, the scaling's bits, the scaling check's sums and
// verdict, each line's sum of squares in pieces, carved from one allocation whose first meta_bytes start zeroed (the
// survey accumulates into them).
struct Lines {
    unsigned* a_max;
    unsigned* b_max;
    int* a_flags;
    int* b_flags;
    int* bits;    // alpha + beta for each count of moduli (gemm::scaling_bits_index)
    int* moduli;  // the scaling check's verdict: the count of moduli, or 0
    gemm::KSquares a_squares;
    gemm::KSquares b_squares;
    gemm::LineSquares a_line_squares;
    gemm::LineSquares b_line_squares;
    double* block_sums;  // the scaling check's
};

// The residue matrices of op(A) and op(B)^T, with room for every modulus (they are enqueued before the count is
// known on the host), and the product's residues, for `count` moduli.
struct Residues {
    int count;
    int8_t* a;         // kOzakiModuli x M x kp
    int8_t* b;         // kOzakiModuli x N x kp
    uint8_t* product;  // count x M x ozaki_product_pitch(N)
};

int64_t aligned(int64_t bytes) { return ceil_div(bytes, 256) * 256; }

mm_status allocate(DeviceBuffer& buffer, const GemmArgs& g, const gemm::OperandLines& a, const gemm::OperandLines& b,
                   Lines* w, cudaStream_t stream) {
    const int64_t M = g.M, N = g.N;
    w->a_squares.groups = gemm::k_squares_groups(a);
    w->b_squares.groups = gemm::k_squares_groups(b);
    w->a_line_squares.pieces = gemm::line_square_pieces(a);
    w->b_line_squares.pieces = gemm::line_square_pieces(b);
    const int64_t meta_bytes = 2 * 4 * (M + N) + 3 * 4;
    const int64_t squares_bytes =
        8 * ((w->a_squares.groups + w->b_squares.groups) * int64_t(g.K) + w->a_line_squares.pieces * M +
             w->b_line_squares.pieces * N + gemm::scaling_check_doubles());
    MM_TRY(buffer.allocate(size_t(aligned(meta_bytes) + squares_bytes), "the Ozaki scheme's line statistics"));
    uint8_t* const base = reinterpret_cast<uint8_t*>(buffer.data());
    w->a_max = reinterpret_cast<unsigned*>(base);
    w->b_max = w->a_max + M;
    w->a_flags = reinterpret_cast<int*>(w->b_max + N);
    w->b_flags = w->a_flags + M;
    w->bits = w->b_flags + N;
    w->moduli = w->bits + 2;
    w->a_squares.partial = reinterpret_cast<double*>(base + aligned(meta_bytes));
    w->b_squares.partial = w->a_squares.partial + w->a_squares.groups * int64_t(g.K);
    w->a_line_squares.partial = w->b_squares.partial + w->b_squares.groups * int64_t(g.K);
    w->b_line_squares.partial = w->a_line_squares.partial + w->a_line_squares.pieces * M;
    w->block_sums = w->b_line_squares.partial + w->b_line_squares.pieces * N;
    return mm_check_cuda(cudaMemsetAsync(base, 0, size_t(meta_bytes), stream), "cudaMemsetAsync");
}

mm_status allocate_operand_residues(DeviceBuffer& buffer, const GemmArgs& g, int64_t kp, Residues* r) {
    const int64_t a_bytes = aligned(gemm::kOzakiModuli * int64_t(g.M) * kp);
    MM_TRY(buffer.allocate(size_t(a_bytes + gemm::kOzakiModuli * int64_t(g.N) * kp), "the Ozaki scheme's residues"));
    r->a = reinterpret_cast<int8_t*>(buffer.data());
    r->b = r->a + a_bytes;
    return MM_OK;
}

mm_status allocate_product_residues(DeviceBuffer& buffer, const GemmArgs& g, Residues* r) {
    MM_TRY(buffer.allocate(size_t(r->count * int64_t(g.M) * gemm::ozaki_product_pitch(g.N)),
                           "the Ozaki scheme's product residues"));
    r->product = reinterpret_cast<uint8_t*>(buffer.data());
    return MM_OK;
}

// The scaling's bits into w.bits and how many moduli carry the product at fp32 accuracy (0: none): the scaling
// check's verdict into w.moduli, whose read-back starts behind it. Seven are allowed where C has
// gemm::kChainOrderMinOutputsPerSm outputs per SM.
mm_status check_scaling(const gemm::OperandLines& a, const gemm::OperandLines& b, const Lines& w, int64_t K,
                        IntReadback& verdict, cudaStream_t stream) {
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    const bool chain_order = double(a.lines) * double(b.lines) >= gemm::kChainOrderMinOutputsPerSm * sms;
    const gemm::LineStatistics a_lines{w.a_max, a.lines, w.a_squares, w.a_line_squares};
    const gemm::LineStatistics b_lines{w.b_max, b.lines, w.b_squares, w.b_line_squares};
    MM_TRY(gemm::launch_scaling_check(a_lines, b_lines, K, chain_order, w.block_sums, w.bits, w.moduli, stream));
    return verdict.start(w.moduli, stream);
}

// Every modulus's product in one launch per K chunk: the residues of C modulo each of the first kModuli moduli,
// summed over the chunks.
template <int kModuli>
mm_status launch_products(const GemmArgs& g, int64_t kp, const Residues& r, cudaStream_t stream) {
    constexpr auto kernel = &ozaki_int8_kernel<kModuli>;
    MM_TRY(gemm::allow_shared_memory<kernel>(kSmemBytes, "cudaFuncSetAttribute"));
    CUtensorMap a_map, b_map;
    MM_TRY(gemm::encode_int8_k_major_map(r.a, int64_t(kModuli) * g.M, kp, kp, kBM, &a_map, "A's residues"));
    MM_TRY(gemm::encode_int8_k_major_map(r.b, int64_t(kModuli) * g.N, kp, kp, kBN, &b_map, "B's residues"));
    const gemm::OzakiModuli& moduli = gemm::ozaki_moduli(kModuli);
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    for (int k0 = 0; k0 < g.K; k0 += kChunkK) {
        GemmArgs chunk = g;
        chunk.K = g.K - k0 < kChunkK ? g.K - k0 : kChunkK;
        const gemm::PersistentSchedule s = gemm::persistent_schedule(chunk, kBM, kBN, kBK, int(tiles_of(chunk.K, kBK)));
        const int64_t units = int64_t(s.tiles()) * kModuli;
        const int blocks = int(units < sms ? units : sms);
        MM_TRY(gemm::launch(kernel, blocks, kFrame.threads(), kSmemBytes, stream, "ozaki_int8", a_map, b_map,
                            r.product, moduli, int(k0 > 0), k0 / kBK, s));
    }
    return MM_OK;
}

}  // namespace

// wgmma and the bulk tensor copies need a Hopper GPU and this file's sm_90a machine code.
mm_status requires_ozaki_int8() {
    return gemm::require_bulk_copy(gemm::machine_code_of<ozaki_int8_kernel<gemm::kOzakiModuli>>(), "ozaki_int8");
}

mm_status launch_ozaki_int8(const GemmArgs& g, cudaStream_t stream) {
    if (int64_t(gemm::kOzakiModuli) * (g.M > g.N ? g.M : g.N) > INT32_MAX)
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "ozaki_int8: M and N must be at most %d (its residue matrices of "
                       "each operand are stacked in one tensor map); use another kernel for this product",
                       INT32_MAX / gemm::kOzakiModuli);
    const bool a_n = g.op_a == MM_OP_N, b_t = g.op_b == MM_OP_T;
    const gemm::OperandLines a{g.A, g.lda, g.M, g.K, a_n}, b{g.B, g.ldb, g.N, g.K, b_t};
    DeviceBuffer lines_buffer(stream, DeviceBuffer::Pool::kWorkspace);
    Lines w{};
    MM_TRY(allocate(lines_buffer, g, a, b, &w, stream));
    MM_TRY(gemm::launch_line_survey(a, w.a_max, w.a_flags, w.a_squares, w.a_line_squares, stream));
    MM_TRY(gemm::launch_line_survey(b, w.b_max, w.b_flags, w.b_squares, w.b_line_squares, stream));
    // The residue passes go out before the host waits for the verdict, which they read on the GPU (header: why).
    IntReadback verdict;
    MM_TRY(check_scaling(a, b, w, g.K, verdict, stream));
    Residues r{};
    // Whole K tiles: every residue row starts on a 128-byte line, so that each row of a copy's box is one line of
    // memory rather than parts of two.
    static_assert(kBK % gemm::kOzakiKAlign == 0, "a K tile is a multiple of the residue passes' alignment");
    const int64_t kp = ceil_div(g.K, kBK) * kBK;
    DeviceBuffer operands_buffer(stream, DeviceBuffer::Pool::kWorkspace);
    MM_TRY(allocate_operand_residues(operands_buffer, g, kp, &r));
    MM_TRY(gemm::launch_residues(a, gemm::OzakiOperand::kA, w.a_max, w.bits, w.moduli, r.a, kp, stream));
    MM_TRY(gemm::launch_residues(b, gemm::OzakiOperand::kB, w.b_max, w.bits, w.moduli, r.b, kp, stream));
    MM_TRY(verdict.value(&r.count));
    if (r.count == 0) return launch_wgmma_3xtf32(g, stream);
    DeviceBuffer product_buffer(stream, DeviceBuffer::Pool::kWorkspace);
    MM_TRY(allocate_product_residues(product_buffer, g, &r));
    MM_TRY(r.count == gemm::kOzakiFewestModuli ? launch_products<gemm::kOzakiFewestModuli>(g, kp, r, stream)
                                               : launch_products<gemm::kOzakiModuli>(g, kp, r, stream));
    MM_TRY(gemm::launch_ozaki_rebuild(r.product, r.count, g.M, g.N, w.a_max, w.b_max, w.bits, g.C, g.ldc, stream));
    return gemm::launch_nonfinite_fixup(g, w.a_flags, w.b_flags, stream);
}
