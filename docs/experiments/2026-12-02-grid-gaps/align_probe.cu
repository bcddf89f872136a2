// Unaligned operands (rows not a multiple of 16 bytes: an odd K or N) shut out the bulk-copy and vector-load
// kernels. What does best gain on such a product when A and B are first gathered into rows padded to 16 bytes and C
// is computed into a padded workspace and copied out (core/layout/rearrange.h's gather and scale_add), and which of
// best's configurations (and split counts) is fastest on the padded product? On aligned products, the same sweep
// of every configuration and split count, for a cost model of the choice. Results of best and of the staged
// product are checked against cuBLAS's; every timing goes to align.json.
// Build (from the repository root, after make):
//   nvcc -std=c++20 -O3 -arch=sm_90 --default-stream per-thread -Icuda -o docs/experiments/2026-12-02-grid-gaps/align_probe \
//       docs/experiments/2026-12-02-grid-gaps/align_probe.cu build/core/layout/rearrange.o build/core/device_buffer.o \
//       build/core/launch.o build/core/status.o -Lmatmul_opt -lmatmul -Xlinker -rpath,'$ORIGIN/../../../matmul_opt'
// Run: ./align_probe JSON_PATH
#include <string>

#include "core/layout/rearrange.h"

#include "probe_calls.h"

static int64_t padded(int64_t n) { return (n + 3) / 4 * 4; }

// Every configuration x split count on g (forced), as "name/splits": us.
static std::string sweep(const GemmArgs& g, float* fastest, std::string* fastest_name) {
    std::string json;
    *fastest = 1e30f;
    for (int c = 0; c < mm_best_config_count(); ++c) {
        const char* name = nullptr;
        mm_best_config_name(c, &name);
        const std::string config = name;
        if (config == "skinny" && std::min(g.M, g.N) > 32) continue;  // its fallback elsewhere
        if (config == "shortk" && g.K > 16) continue;
        for (int splits : {0, 1, 2, 3, 4, 6, 8, 12}) {
            must(mm_best_force(c, splits));
            const mm_status st = launch_named("best", g);
            must(mm_best_force(-1, 1));
            if (st != MM_OK) continue;
            CK(cudaDeviceSynchronize());
            const float us = time_us([&] {
                must(mm_best_force(c, splits));
                must(launch_named("best", g));
                must(mm_best_force(-1, 1));
            }, 5);
            const std::string key = config + "/" + std::to_string(splits);
            json += (json.empty() ? "" : ", ") + ("\"" + key + "\": " + std::to_string(us));
            if (us < *fastest) *fastest = us, *fastest_name = key;
        }
    }
    return "{" + json + "}";
}

int main(int argc, char** argv) {
    FILE* out = fopen(argc > 1 ? argv[1] : "align.json", "w");
    struct Shape { int M, N, K; };
    const Shape shapes[] = {
        // unaligned: the grid's below 0.95x cuBLAS, then others
        {8193, 129, 1000}, {385, 769, 1537}, {3001, 257, 5003}, {1153, 1153, 1153}, {129, 4097, 2000},
        {2561, 1025, 3001}, {641, 1537, 2049}, {7169, 257, 1500}, {4225, 193, 2000}, {1537, 1537, 777},
        {999, 3001, 2001}, {5003, 701, 1199},
        // aligned
        {257, 3072, 1024}, {4096, 64, 4096}, {200, 300, 20000}, {250, 1500, 3000}, {128, 4096, 4096},
        {300, 2000, 2500}, {96, 6000, 3000}, {700, 1800, 2200}, {1500, 1100, 900}, {3000, 640, 1500},
        {2200, 2200, 2000}, {420, 5000, 1000}, {6000, 300, 2500}, {1000, 1000, 1000},
    };
    fprintf(out, "[\n");
    printf("shape              cublas     best   staged   passes  pad best  fastest on padded\n");
    bool first = true;
    for (const Shape& s : shapes) {
        Product p(s.M, s.N, s.K, false, 7);
        printf("%5dx%5dx%5d %8.2f", s.M, s.N, s.K, p.cublas_us);
        print_checked_us(p, [&] { must(launch_named("best", p.g)); }, 7);
        const float best_us = time_us([&] { must(launch_named("best", p.g)); }, 7);
        const int64_t kp = padded(s.K), np = padded(s.N);
        const bool aligned = kp == s.K && np == s.N;
        float *ap = p.A, *bp = p.B, *cp = p.C;
        float staged = 0, passes = 0, pad_best = 0;
        if (!aligned) {
            CK(cudaMalloc(&ap, sizeof(float) * s.M * kp));
            CK(cudaMalloc(&bp, sizeof(float) * s.K * np));
            CK(cudaMalloc(&cp, sizeof(float) * s.M * np));
        }
        GemmArgs q = p.g;
        q.A = ap, q.lda = kp, q.B = bp, q.ldb = np, q.C = cp, q.ldc = np;
        const auto gather = [&] {
            must(gemm::launch_gather(p.A, s.M, s.K, s.K, 1, ap, kp, nullptr));
            must(gemm::launch_gather(p.B, s.K, s.N, s.N, 1, bp, np, nullptr));
        };
        const auto scatter = [&] { must(gemm::launch_scale_add(cp, np, 1.f, 0.f, p.C, s.N, s.M, s.N, nullptr)); };
        if (!aligned) {
            const auto full = [&] { gather(); must(launch_named("best", q)); scatter(); };
            print_checked_us(p, full, 7);
            staged = time_us(full, 7);
            passes = time_us([&] { gather(); scatter(); }, 7);
            pad_best = time_us([&] { must(launch_named("best", q)); }, 7);
            printf(" %8.2f %8.2f", passes, pad_best);
        } else {
            printf(" %8s %8s %8s", "-", "-", "-");
        }
        float fastest = 0;
        std::string name;
        const std::string all = sweep(q, &fastest, &name);
        printf("  %8.2f %s\n", fastest, name.c_str());
        fflush(stdout);
        fprintf(out, "%s{\"M\": %d, \"N\": %d, \"K\": %d, \"aligned\": %s, \"cublas\": %.3f, \"best\": %.3f, \"staged\": %.3f, "
                "\"passes\": %.3f, \"padded_best\": %.3f, \"forced\": %s}\n", first ? "" : ",", s.M, s.N, s.K,
                aligned ? "true" : "false", p.cublas_us, best_us, staged, passes, pad_best, all.c_str());
        first = false;
        if (!aligned) {
            for (float* b : {ap, bp, cp}) CK(cudaFree(b));
        }
    }
    fprintf(out, "]\n");
    fclose(out);
    return 0;
}
