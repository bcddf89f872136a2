"""CPU tier: the Ozaki scheme's arithmetic (core/layout/residues.h, core/layout/scaling_check.h), built for the host
with nvcc and checked against Python: the residue passes' symmetric residues of every scaled integer they can meet,
the product kernel's epilogue residues, the rebuild's Chinese remainder fraction and the lines' exponents against
exact integers; the scaling check's estimate and verdict against their closed forms."""
import math
import random
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULI = [256, 255, 253, 251, 247, 241, 239, 233]
PRODUCT = math.prod(MODULI)
FEWEST = MODULI[:7]

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is missing")


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    binary = tmp_path_factory.mktemp("ozaki") / "ozaki_arithmetic"
    build = subprocess.run(["nvcc", "-std=c++20", "-O2", "-Icuda", "-Xcompiler", "-Wall,-Wextra,-Werror",
                            "tests/ozaki_arithmetic.cu", "cuda/core/layout/moduli.cu", "-o", str(binary)],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr

    def ask(requests):
        run = subprocess.run([str(binary)], input="\n".join(requests) + "\n", capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 0, run.stderr
        answers = run.stdout.splitlines()
        assert len(answers) == len(requests)
        return [[int(v) if v.lstrip("-").isdigit() else float(v) for v in answer.split()] for answer in answers]

    return ask


def symmetric(x, m):
    """x's residue modulo m in [-(m - 1) // 2, m - 1 - (m - 1) // 2]; modulo 256 in [-128, 128)."""
    half = 128 if m == 256 else (m - 1) // 2
    return (x + half) % m - half


def edges(limit):
    """Values where carries and wraps change: around 0, the ends, powers of two and multiples of each modulus."""
    values = {0, limit, -limit}
    for p in range(33):
        values |= {2**p, -(2**p), 2**p - 1, 1 - 2**p, 2**p + 1, -(2**p) - 1}
    for m in MODULI:
        top = limit // m * m
        values |= {top, -top, top - 1, 1 - top, m * 65536, -m * 65536, m * 65536 - 1}
    return sorted(v for v in values if -limit <= v <= limit)


def test_the_moduli_are_the_documented_ones(harness):
    (answer,) = harness(["m"])
    assert answer == MODULI
    assert all(math.gcd(a, b) == 1 for i, a in enumerate(MODULI) for b in MODULI[i + 1:])


def test_residue_bytes_of_every_scaled_integer_are_its_symmetric_residues(harness):
    rng = random.Random(1)
    xs = edges(2**31) + [rng.randint(-(2**31), 2**31) for _ in range(100_000)]
    xs += [rng.randint(-(2**p), 2**p) for p in range(1, 32) for _ in range(200)]
    for x, answer in zip(xs, harness([f"r {x}" for x in xs])):
        assert answer == [symmetric(x, m) for m in MODULI], x


def test_epilogue_residues_of_int32_sums_lie_in_zero_to_m(harness):
    rng = random.Random(2)
    xs = edges(2**31 - 1) + [-(2**31)] + [rng.randint(-(2**31), 2**31 - 1) for _ in range(50_000)]
    for x, answer in zip(xs, harness([f"e {x}" for x in xs])):
        assert answer == [x % m for m in MODULI], x


@pytest.mark.parametrize("op, moduli", [("c", MODULI), ("f", FEWEST)], ids=["every modulus", "the fewest"])
def test_crt_fraction_rebuilds_every_product_the_scaling_allows(harness, op, moduli):
    """|C_int| < M / 2 (1 - 2^-40), as the scaling keeps it, M the product of the moduli used: the fraction times
    M / 2^64 is C_int within 2^-54 M."""
    product = math.prod(moduli)
    rng = random.Random(3)
    bound = product // 2 - (product >> 41)
    values = [0, 1, -1, bound, -bound, bound - 1, 1 - bound]
    values += [rng.randint(-bound, bound) for _ in range(50_000)]
    values += [rng.randint(-(2**p), 2**p) for p in range(1, bound.bit_length()) for _ in range(100)]
    answers = harness([f"{op} " + " ".join(str(v % m) for m in moduli) for v in values])
    for value, (fraction,) in zip(values, answers):
        assert -(2**63) <= fraction < 2**63
        assert abs(fraction * product - value * 2**64) <= product * 2**10, value  # exact: 2^64 times each side


def test_line_exponents_match_frexp(harness):
    rng = random.Random(4)
    bits = [0, 1, 2, 3, 0x7FFFFF, 0x800000, 0x800001, 0x3F800000, 0x5F7FFFFF]
    bits += [rng.randint(1, 0x7FFFFF) for _ in range(2000)] + [rng.randint(0x800000, 0x5F7FFFFF) for _ in range(5000)]
    for b, (exponent,) in zip(bits, harness([f"x {b}" for b in bits])):
        value = struct.unpack("<f", struct.pack("<I", b))[0]
        assert exponent == (math.frexp(value)[1] if b else 0), hex(b)


def test_scaling_check_carries_uniform_statistics_and_not_coarser_ones(harness):
    """Operands of M x K and K x N values of mean square 1/3 whose lines keep `bits` bits each: the rounding errors
    (variance u^2 / 3, u = 2^-(bits + 1)) give rho = sqrt(2) 2^-(bits + 1) whatever the shape, against the floor
    2.3e-8 max(1, K / 16)^0.277 that the verdict holds it to."""
    M, N = 3000, 5000
    cases = []
    for K in (1, 16, 4096, 2**20):
        for bits in (18, 22, 24, 26, 30):
            u2, v2 = M * 2.0 ** (-2 * bits - 2), N * 2.0 ** (-2 * bits - 2)
            a, b, scale = M * K / 3, K * N / 3, K * (M / 3) * (N / 3)
            cases.append((K, bits, f"v {u2!r} {v2!r} {a!r} {b!r} {scale!r} {K}"))
    for (K, bits, _), (carried, rho) in zip(cases, harness([request for _, _, request in cases])):
        expected = math.sqrt(2) * 2.0 ** -(bits + 1)
        assert rho == pytest.approx(expected, rel=1e-12)
        floor = 2.3e-8 * max(1.0, K / 16) ** 0.277
        assert carried == (expected <= floor), (K, bits, rho, floor)


def test_scaling_check_carries_a_product_whose_terms_are_all_zero(harness):
    """Every column of op(A) or row of op(B) zero: C is exactly zero, whatever the lines' rounding."""
    ((carried, rho),) = harness(["v 1e30 1e30 5 7 0 4096"])
    assert (carried, rho) == (1, 0.0)


def test_the_fewest_moduli_only_where_cublas_sums_in_one_chain_and_their_error_is_within_its_bound(harness):
    """Seven moduli where the chain order holds and rho with them is at most 7.7e-9 sqrt(K); else eight where rho
    with eight is within the floor 2.3e-8 max(1, K / 16)^0.277; else none (computed another way)."""
    cases = []
    for K in (16, 4096, 65536, 2**20):
        bound, floor = 7.7e-9 * math.sqrt(K), 2.3e-8 * max(1.0, K / 16) ** 0.277
        for rho_fewest in (0.5 * bound, bound, 1.01 * bound, 100 * bound):
            for rho_all in (0.5 * floor, floor, 1.01 * floor):
                for chain in (0, 1):
                    expected = 7 if chain and rho_fewest <= bound else 8 if rho_all <= floor else 0
                    cases.append((expected, f"n {rho_fewest!r} {rho_all!r} {K} {chain}"))
    for (expected, request), (count,) in zip(cases, harness([request for _, request in cases])):
        assert count == expected, request
