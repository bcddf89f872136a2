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

}  // namespace

const OzakiModuli& ozaki_moduli() {
    static const OzakiModuli moduli = [] {
        OzakiModuli o{};
        unsigned __int128 product = 1;
        for (int m : kOzakiModulusValues) product *= unsigned(m);
        for (int l = 0; l < kOzakiModuli; ++l) o.modulus[l] = modulus_constants(kOzakiModulusValues[l], product);
        o.product = double(product);
        return o;
    }();
    return moduli;
}

}  // namespace gemm
