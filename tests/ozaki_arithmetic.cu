// Host harness for tests/test_ozaki_arithmetic.py: runs the Ozaki passes' arithmetic (core/layout/residues.h,
// core/layout/scaling_check.h) on the CPU over the values the test writes to stdin, one request a line, and prints
// one answer a line:
//   r X       the scaled integer X in [-2^31, 2^31]: its residue byte modulo every modulus, as int8
//   e X       the int32 X: residue_of(X) modulo every modulus
//   c R0..R7  residues in [0, m_l): crt_fraction with every modulus
//   f R0..R6  residues in [0, m_l) of the first seven: crt_fraction with the fewest moduli (over the first seven;
//             exits with 3 where the sum over all eight, the eighth weighing 0, differs)
//   x B       the bits B of a largest magnitude: line_exponent(B)
//   m         the moduli
//   v U2 V2 A B S K   the scaling check's statistics at depth K: ozaki_carries (1 or 0) and the estimate rho
//   n R7 R8 K C       rho with the fewest and with every modulus at depth K, chain order C (1 or 0):
//                     ozaki_moduli_count
#include <cinttypes>
#include <cstdio>

#include "core/layout/residues.h"
#include "core/layout/scaling_check.h"

int main() {
    const gemm::OzakiModuli& moduli = gemm::ozaki_moduli(gemm::kOzakiModuli);
    const gemm::OzakiModuli& fewest = gemm::ozaki_moduli(gemm::kOzakiFewestModuli);
    char op = 0;
    while (std::scanf(" %c", &op) == 1) {
        if (op == 'r') {
            long long x = 0;
            if (std::scanf("%lld", &x) != 1) return 2;
            const gemm::LiftedInteger lifted = gemm::lift(x);
            for (int l = 0; l < gemm::kOzakiModuli; ++l)
                std::printf("%d ", int(int8_t(gemm::residue_byte(lifted, l, moduli))));
        } else if (op == 'e') {
            int x = 0;
            if (std::scanf("%d", &x) != 1) return 2;
            for (int l = 0; l < gemm::kOzakiModuli; ++l) std::printf("%d ", gemm::residue_of(x, moduli.modulus[l]));
        } else if (op == 'c') {
            unsigned residues[gemm::kOzakiModuli];
            for (unsigned& r : residues)
                if (std::scanf("%u", &r) != 1) return 2;
            std::printf("%lld", gemm::crt_fraction(residues, moduli));
        } else if (op == 'f') {
            unsigned residues[gemm::kOzakiFewestModuli];
            for (unsigned& r : residues)
                if (std::scanf("%u", &r) != 1) return 2;
            unsigned with_eighth[gemm::kOzakiModuli] = {};  // the eighth residue 0, as it weighs 0 in the set
            for (int l = 0; l < gemm::kOzakiFewestModuli; ++l) with_eighth[l] = residues[l];
            const long long counted = gemm::crt_fraction(residues, fewest);
            if (gemm::crt_fraction(with_eighth, fewest) != counted) return 3;  // the same sum
            std::printf("%lld", counted);
        } else if (op == 'n') {
            double rho_fewest = 0, rho_all = 0, k = 0;
            int chain = 0;
            if (std::scanf("%lf %lf %lf %d", &rho_fewest, &rho_all, &k, &chain) != 4) return 2;
            std::printf("%d", gemm::ozaki_moduli_count(rho_fewest, rho_all, k, chain != 0));
        } else if (op == 'x') {
            unsigned bits = 0;
            if (std::scanf("%u", &bits) != 1) return 2;
            std::printf("%d", gemm::line_exponent(bits));
        } else if (op == 'v') {
            double u2 = 0, v2 = 0, a = 0, b = 0, scale = 0, k = 0;
            if (std::scanf("%lf %lf %lf %lf %lf %lf", &u2, &v2, &a, &b, &scale, &k) != 6) return 2;
            const double rho = gemm::ozaki_error_estimate(u2, v2, a, b, scale);
            std::printf("%d %.17g", int(gemm::ozaki_carries(rho, k)), rho);
        } else if (op == 'm') {
            for (const gemm::OzakiModulus& mod : moduli.modulus) std::printf("%d ", mod.m);
        } else {
            return 2;
        }
        std::printf("\n");
    }
    return 0;
}
