// The host path: C = alpha·op(A)·op(B) + beta·C on host arrays (mm_gemm_host and the _host entries), streamed.
//
// B goes up first, whole, as stored. Then C is made panel by panel: a panel of op(A)'s rows (and of C's, when
// beta != 0) goes up, is multiplied into the device copy of C, and comes back, so that the copy up of one panel,
// the product of the one before and the copy down of the one before that all run at once (HostStaging: pinned
// staging rings filled and drained by several CPU threads, or no staging at all for pinned arrays). A panel is
// as tall as a wave of output tiles needs, so the products fill the GPU; panel heights follow from the shape alone,
// so the same inputs give the same bits, call after call. A problem of one panel with K > 0, no pinned operand
// and device copies that fit in one staging slot goes up as one image instead (packed_product): small calls cost
// what their latency chain does. The smallest of those skip the copies: the kernel reads and writes the image in the
// pinned staging slot over the host link (mapped_product).
// The device copies are the library's own (rows padded to 4 floats, every kernel's vector path applies), so the
// products skip the pointer checks of the asynchronous entry.
#include <algorithm>
#include <cstring>

#include "api/enqueue.h"
#include "api/gemm_host.h"
#include "api/host_staging.h"
#include "api/validate.h"
#include "core/device_buffer.h"
#include "core/host/parallel_copy.h"

namespace {

// Elements of C per panel: about one wave of the largest output tiles (128 x 256) on 132 SMs.
constexpr int64_t kPanelElements = int64_t(4) << 20;
// Panel heights are whole numbers of the tallest output tile.
constexpr int64_t kPanelAlign = 128;
constexpr int64_t kSlotElements = int64_t(HostStaging::kSlotBytes / sizeof(float));
// Problems whose device image is at most this large run on the staging slot itself (mapped_product): the copies'
// fixed costs would be most of such a call, and the kernels' re-reads of operands over the host link stay few (a
// few tiles' worth).
constexpr size_t kMappedImageBytes = size_t(256) << 10;

// Rows of C per panel: a wave's worth, but no more than a staging slot holds of op(A)'s or C's rows; a whole number
// of tile heights (or of 4 rows, when fewer fit), so that every panel of a transposed A starts 16-byte aligned and
// the bulk-copy kernels can take it.
int64_t panel_rows(int64_t M, int64_t N, int64_t K) {
    const int64_t wave = ceil_div(ceil_div(kPanelElements, N), kPanelAlign) * kPanelAlign;
    const int64_t fit = std::max<int64_t>(kSlotElements / std::max(K, N), 1);
    int64_t rows = std::min(wave, fit);
    const int64_t unit = rows >= kPanelAlign ? kPanelAlign : rows >= 4 ? 4 : 1;
    rows = rows / unit * unit;
    return std::min(rows, M);
}

// A row-major host matrix as stored.
struct HostMatrix {
    float* data;
    int64_t rows, cols, ld;
    bool pinned;

    HostMatrix(const float* p, int64_t rows, int64_t cols, int64_t ld)
        : data(const_cast<float*>(p)), rows(rows), cols(cols), ld(ld), pinned(false) {
        const size_t bytes = rows > 0 && cols > 0 ? size_t((rows - 1) * ld + cols) * sizeof(float) : 0;
        pinned = bytes >= HostStaging::kPinnedQueryBytes && is_pinned(p, bytes);
    }
};

// Calls copy(host block, device block) for blocks of at most a staging slot that cover rows [r0, r0 + rows) and
// columns [c0, c0 + cols) of `host`, whose device copy is `device` (same element offsets, leading dimension
// device_ld): whole rows when a row fits in a slot, else pieces of single rows.
template <class Copy>
mm_status for_each_block(const HostMatrix& host, float* device, int64_t device_ld, int64_t r0, int64_t rows,
                         int64_t c0, int64_t cols, Copy&& copy) {
    const int64_t block_rows = std::max<int64_t>(kSlotElements / cols, 1);
    const int64_t block_cols = std::min(cols, kSlotElements);
    for (int64_t r = r0; r < r0 + rows; r += block_rows) {
        for (int64_t c = c0; c < c0 + cols; c += block_cols) {
            const int64_t n_rows = std::min(block_rows, r0 + rows - r), n_cols = std::min(block_cols, c0 + cols - c);
            MM_TRY(copy(HostBlock{host.data + r * host.ld + c, n_rows, n_cols, host.ld, host.pinned},
                        DeviceBlock{device + r * device_ld + c, device_ld}));
        }
    }
    return MM_OK;
}

// The device copies of A, B and C, as one allocation laid out A | B | C: rows padded to 4 floats (padded_ld), each
// matrix starting 256-byte aligned.
struct DeviceImages {
    DeviceBuffer buffer;
    int64_t lda, ldb, ldc;
    size_t offset_b, offset_c, bytes;  // in floats: where B and C start, and the whole image's size

    DeviceImages(cudaStream_t stream, const HostMatrix& a, const HostMatrix& b, const HostMatrix& c)
        : buffer(stream), lda(padded_ld(a.cols)), ldb(padded_ld(b.cols)), ldc(padded_ld(c.cols)) {
        const auto aligned = [](int64_t floats) { return size_t((std::max<int64_t>(floats, 1) + 63) / 64 * 64); };
        offset_b = aligned(a.rows * lda);
        offset_c = offset_b + aligned(b.rows * ldb);
        bytes = sizeof(float) * (offset_c + aligned(c.rows * ldc));
    }
    mm_status allocate() { return buffer.allocate(bytes, "copying the operands to the device"); }
    float* a() const { return buffer.data(); }
    float* b() const { return buffer.data() + offset_b; }
    float* c() const { return buffer.data() + offset_c; }
};

// Waits for the staging set's streams when it goes out of scope, so that the device copies declared before it are
// freed only once no copy uses them (on every return path).
struct QuiesceOnExit {
    HostStaging& staging;
    ~QuiesceOnExit() { staging.synchronize(); }
};

// All-ones bytes are a NaN: an element a kernel fails to write can never pass for a result (the pool may hand back
// memory that still holds an earlier, correct product).
constexpr int kPoisonByte = 0xFF;

// Lays A, B and C (C's values, or poison when beta = 0) out in `image` as `images` places them on the device.
void assemble_image(float* image, const DeviceImages& images, const HostMatrix& a, const HostMatrix& b, float beta,
                    const HostMatrix& c) {
    const auto place = [](float* dst, int64_t dst_ld, const HostMatrix& m) {
        parallel_copy_rows(dst, size_t(dst_ld) * sizeof(float), m.data, size_t(m.ld) * sizeof(float),
                           size_t(m.cols) * sizeof(float), size_t(m.rows));
    };
    place(image, images.lda, a);
    place(image + images.offset_b, images.ldb, b);
    if (beta != 0.0f)
        place(image + images.offset_c, images.ldc, c);
    else
        std::memset(image + images.offset_c, kPoisonByte, sizeof(float) * size_t(c.rows * images.ldc));
}

// p with its matrices replaced by their device copies.
mm_gemm_problem on_device(const mm_gemm_problem& p, const float* A, int64_t lda, const float* B, int64_t ldb, float* C,
                          int64_t ldc) {
    mm_gemm_problem d = p;
    d.A = A, d.lda = lda, d.B = B, d.ldb = ldb, d.C = C, d.ldc = ldc;
    return d;
}

// A problem whose device image fits in one staging slot: the image is assembled in the slot and sent in one copy,
// so the GPU sees three operations: the copy up, the product, the copy down.
mm_status packed_product(HostStaging& staging, DeviceImages& images, const KernelEntry* entry, const mm_gemm_problem& p,
                         const HostMatrix& a, const HostMatrix& b, const HostMatrix& c) {
    HostStaging::UpSlot* slot = nullptr;
    MM_TRY(staging.take_up_slot(images.bytes, &slot));
    assemble_image(slot->memory.data(), images, a, b, p.beta, c);
    MM_TRY(staging.send_up(*slot, images.a(), images.bytes));
    MM_TRY(enqueue_checked(entry, on_device(p, images.a(), images.lda, images.b(), images.ldb, images.c(), images.ldc),
                           staging.compute()));
    MM_TRY(staging.push_down(DeviceBlock{images.c(), images.ldc}, HostBlock{c.data, p.M, p.N, c.ld, c.pinned}));
    return staging.drain_all();
}

// A problem whose image is at most kMappedImageBytes: the kernel runs on the image in the staging slot itself, which
// the GPU reads and writes over the host link (pinned memory is mapped into its address space), so the GPU sees one
// operation; C is copied out of the slot once the product has finished.
mm_status mapped_product(HostStaging& staging, const DeviceImages& images, const KernelEntry* entry,
                         const mm_gemm_problem& p, const HostMatrix& a, const HostMatrix& b, const HostMatrix& c) {
    HostStaging::UpSlot* slot = nullptr;
    MM_TRY(staging.take_up_slot(images.bytes, &slot));
    float* const image = slot->memory.data();
    assemble_image(image, images, a, b, p.beta, c);
    float* mapped = nullptr;
    MM_TRY(mm_check_cuda(cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped), image, 0),
                         "cudaHostGetDevicePointer"));
    MM_TRY(enqueue_checked(entry,
                           on_device(p, mapped, images.lda, mapped + images.offset_b, images.ldb,
                                     mapped + images.offset_c, images.ldc),
                           staging.compute()));
    MM_TRY(staging.synchronize());  // the kernel has read the slot: the slot is free again, no event needed
    parallel_copy_rows(c.data, size_t(c.ld) * sizeof(float), image + images.offset_c,
                       size_t(images.ldc) * sizeof(float), size_t(p.N) * sizeof(float), size_t(p.M));
    return MM_OK;
}

// Any other problem: B up first, then the panels (the file's header).
mm_status panel_product(HostStaging& staging, DeviceImages& images, const KernelEntry* entry, const mm_gemm_problem& p,
                        const HostMatrix& a, const HostMatrix& b, const HostMatrix& c, int64_t rows) {
    const int64_t M = p.M, N = p.N, K = p.K;
    const auto up = [&](const HostBlock& h, DeviceBlock d) { return staging.push_up(h, d); };
    const auto down = [&](const HostBlock& h, DeviceBlock d) { return staging.push_down(d, h); };
    MM_TRY(staging.order(staging.compute(), staging.up()));  // the copies up may use the memory only after its allocation
    if (K > 0) MM_TRY(for_each_block(b, images.b(), images.ldb, 0, b.rows, 0, b.cols, up));
    if (p.beta == 0.0f)
        MM_TRY(mm_check_cuda(cudaMemsetAsync(images.c(), kPoisonByte, sizeof(float) * size_t(M * images.ldc),
                                             staging.compute()),
                             "poisoning C"));
    for (int64_t m0 = 0; m0 < M; m0 += rows) {
        const int64_t height = std::min(rows, M - m0);
        if (K > 0 && p.op_a == MM_OP_N) MM_TRY(for_each_block(a, images.a(), images.lda, m0, height, 0, K, up));
        if (K > 0 && p.op_a == MM_OP_T) MM_TRY(for_each_block(a, images.a(), images.lda, 0, K, m0, height, up));
        if (p.beta != 0.0f) MM_TRY(for_each_block(c, images.c(), images.ldc, m0, height, 0, N, up));
        MM_TRY(staging.order(staging.up(), staging.compute()));
        mm_gemm_problem panel = on_device(p, images.a() + (p.op_a == MM_OP_N ? m0 * images.lda : m0), images.lda,
                                          images.b(), images.ldb, images.c() + m0 * images.ldc, images.ldc);
        panel.M = height;
        MM_TRY(enqueue_checked(entry, panel, staging.compute()));
        MM_TRY(staging.order(staging.compute(), staging.down()));
        MM_TRY(for_each_block(c, images.c(), images.ldc, m0, height, 0, N, down));
        MM_TRY(staging.drain_finished());
    }
    return staging.drain_all();
}

mm_status stream_product(HostStaging& staging, const KernelEntry* entry, const mm_gemm_problem& p,
                         const HostMatrix& a, const HostMatrix& b, const HostMatrix& c) {
    const int64_t rows = p.K == 0 ? p.M : panel_rows(p.M, p.N, p.K);
    staging.begin(rows == p.M);
    DeviceImages images(staging.compute(), a, b, c);
    const bool one_image = rows == p.M && p.K > 0 && images.bytes <= HostStaging::kSlotBytes && !a.pinned &&
                           !b.pinned && !c.pinned;
    if (one_image && images.bytes <= kMappedImageBytes) {
        QuiesceOnExit quiesce{staging};
        return mapped_product(staging, images, entry, p, a, b, c);
    }
    MM_TRY(images.allocate());
    QuiesceOnExit quiesce{staging};  // declared after the images: they are freed only once no copy uses them
    if (one_image)
        MM_TRY(packed_product(staging, images, entry, p, a, b, c));
    else
        MM_TRY(panel_product(staging, images, entry, p, a, b, c, rows));
    return staging.synchronize();  // the status of the streams' work; QuiesceOnExit then has nothing to wait for
}

}  // namespace

mm_status gemm_host(const KernelEntry* entry, const mm_gemm_problem& p) {
    // validate_gemm refuses C over A or B: panels of C come back while later panels of A and B still go up.
    MM_TRY(validate_gemm(entry, p));
    if (p.M == 0 || p.N == 0) return MM_OK;
    const HostMatrix a = p.op_a == MM_OP_N ? HostMatrix(p.A, p.M, p.K, p.lda) : HostMatrix(p.A, p.K, p.M, p.lda);
    const HostMatrix b = p.op_b == MM_OP_N ? HostMatrix(p.B, p.K, p.N, p.ldb) : HostMatrix(p.B, p.N, p.K, p.ldb);
    const HostMatrix c(p.C, p.M, p.N, p.ldc);
    std::unique_ptr<HostStaging> staging;
    MM_TRY(HostStaging::acquire(&staging));
    const mm_status status = stream_product(*staging, entry, p, a, b, c);
    HostStaging::release(std::move(staging));
    return status;
}
