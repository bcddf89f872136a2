// The Ozaki scheme's moduli and the constants its passes reduce and rebuild with (host code: the test of the passes'
// arithmetic builds this file without a GPU).
#include "core/layout/residues.h"

namespace gemm {

namespace {

OzakiModulus modulus_constants(int m, unsigned __int128 product) {
    OzakiModulus mod{};
    mod.m = m;
    mod.two16 = (1 << 16) % m;
    mod.magic = unsigned(((uint64_t(1) << 32) + unsigned(m) - 1) / unsigned(m));
    mod.minus_m = 0u - unsigned(m);
    mod.half = (m - 1) / 2;
    const int wrap = int((uint64_t(1) << 31) % unsigned(m));
    mod.lift = ((mod.half - wrap) % m + m) % m;
    const int rest = int((product / unsigned(m)) % unsigned(m));
    int inverse = 0;
    for (int y = 1; y < m; ++y)
        if (rest * y % m == 1) inverse = y;
    mod.weight = uint64_t(((unsigned __int128)(inverse) << 64 | unsigned(m / 2)) / unsigned(m));
    return mod;
}

// The set of the first `count` moduli: their product and, for each, the weight that the Chinese remainder theorem
// gives it modulo that product; the moduli past `count` weigh 0.
OzakiModuli moduli_set(int count) {
    OzakiModuli o{};
    unsigned __int128 product = 1;
    for (int l = 0; l < count; ++l) product *= unsigned(kOzakiModulusValues[l]);
    for (int l = 0; l < kOzakiModuli; ++l) {
        o.modulus[l] = modulus_constants(kOzakiModulusValues[l], product);
        if (l >= count) o.modulus[l].weight = 0;
    }
    o.product = double(product);
    return o;
}

}  // namespace

const OzakiModuli& ozaki_moduli(int count) {
    static const OzakiModuli all = moduli_set(kOzakiModuli), fewest = moduli_set(kOzakiFewestModuli);
    return count == kOzakiFewestModuli ? fewest : all;
}

}  // namespace gemm
