"""GPU tier: the ozaki_int8 rung (fp32 accuracy from INT8 residue products) keeps the fp32-accurate contract at every K
of the report and past one INT8 chunk of K (cuBLAS fp32's error on uniform inputs, twice it on magnitudes spread
over 2^+-40), scales each line on its own (rows whose magnitudes lie up to 2^120 apart), gives the same bits on the
same inputs, computes what its scaling cannot carry as wgmma_3xtf32 (its scaling check), keeps the contract against
cuBLAS on a C large enough that the check allows seven moduli, reads each host thread's verdict back on its own, and
refuses a CUDA graph capture, which that check's read-back does not allow. Inf, NaN, values near the fp32 maximum,
every layout and ragged shapes are the generic tests' (test_gpu_kernels.py, test_gpu_hardening.py)."""
import math

import numpy as np
import pytest

import matmul_opt
from contract_checks import assert_keeps_fp32_accurate_contract, requires
from matmul_opt.accuracy import INPUT_KINDS, error_scale, relative_error

pytestmark = pytest.mark.gpu

# From one product through the residue tile (128) to past one INT8 chunk (65536): two chunks' residues added.
KS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 70000]


@pytest.mark.parametrize("K", KS)
def test_ozaki_keeps_the_fp32_accurate_contract(K):
    assert_keeps_fp32_accurate_contract("ozaki_int8", K)


def test_ozaki_scales_every_row_and_column_on_its_own():
    """Rows of A at scales from 2^-60 to 2^60 (under the 2^64 from which values go to the fix-up) and columns of B
    from 2^-20 to 2^20: each line's own power of two keeps its bits, so every output is as accurate as cuBLAS
    fp32's, small ones included (a scale shared by the whole matrix would round the small lines away)."""
    requires("ozaki_int8", "cublas")
    rng = np.random.default_rng()
    M, N, K = 300, 200, 777
    A = (rng.uniform(-1, 1, (M, K)) * np.exp2(rng.integers(-60, 61, (M, 1)))).astype(np.float32)
    B = (rng.uniform(-1, 1, (K, N)) * np.exp2(rng.integers(-20, 21, (1, N)))).astype(np.float32)
    reference = A.astype(np.float64) @ B.astype(np.float64)
    scale = np.abs(A.astype(np.float64)) @ np.abs(B.astype(np.float64))
    errors = {name: np.max(np.abs(matmul_opt.run(name, A, B) - reference) / scale) for name in ("ozaki_int8", "cublas")}
    assert errors["ozaki_int8"] <= 2 * errors["cublas"], errors


@pytest.mark.parametrize("shape", [(256, 256, 1024), (1000, 300, 5000), (7, 5, 70_000)], ids=str)
def test_ozaki_gives_the_same_bits_on_the_same_inputs(shape):
    requires("ozaki_int8")
    M, N, K = shape
    rng = np.random.default_rng()
    spread = INPUT_KINDS["magnitudes 2^-40 .. 2^40"]
    A, B = spread(rng, (M, K)), spread(rng, (K, N))
    first, second = matmul_opt.run("ozaki_int8", A, B), matmul_opt.run("ozaki_int8", A, B)
    assert np.array_equal(first, second)
    reference = A.astype(np.float64) @ B.astype(np.float64)
    assert relative_error(first, reference) <= matmul_opt.tolerance("fp32_tensor", K)


def rescaled(rng, M, K, N, octaves):
    """A = X D and B = D^-1 Y with D = diag(2^U(-octaves, octaves)) and X, Y uniform: every term of C is of size
    one, while each line's largest value sits up to 2^(2 octaves) above its others, which its scaling rounds away."""
    d = np.exp2(rng.uniform(-octaves, octaves, K))
    return ((rng.uniform(-1, 1, (M, K)) * d).astype(np.float32),
            (rng.uniform(-1, 1, (K, N)) / d[:, None]).astype(np.float32))


def toy(M, K, N):
    """Rows [1, 2^-40, 1, ...] against columns [2^-40, 1, 2^-40, ...]: every term 2^-40, every line's largest 1."""
    rows, columns = np.resize([1.0, 2.0**-40], K), np.resize([2.0**-40, 1.0], K)
    return np.tile(rows, (M, 1)).astype(np.float32), np.tile(columns[:, None], (1, N)).astype(np.float32)


# (M, K, N): lines of both operands in a few groups of k sums over a mid K (the scaling check's warps split the
# groups), and in one group over a longer K (each warp takes its own run of k in tiles of 256 k).
CHECK_SHAPES = [(160, 3001, 120), (48, 20011, 40)]


@pytest.mark.parametrize("shape", CHECK_SHAPES, ids=str)
@pytest.mark.parametrize("inputs", ["rescaled 2^+-10", "rescaled 2^+-20", "toy"])
def test_ozaki_computes_what_its_scaling_cannot_carry_as_wgmma_3xtf32(inputs, shape):
    """The scheme itself would be 1e-4 to 1 off here (docs/experiments/2026-12-04-ozaki-guard.md emulates it): the
    scaling check sends the product to wgmma_3xtf32, whose bits it returns, within the fp32 tolerance."""
    requires("ozaki_int8", "wgmma_3xtf32")
    rng = np.random.default_rng()
    M, K, N = shape
    A, B = toy(M, K, N) if inputs == "toy" else rescaled(rng, M, K, N, int(inputs.split("+-")[1]))
    C = matmul_opt.run("ozaki_int8", A, B)
    assert np.array_equal(C, matmul_opt.run("wgmma_3xtf32", A, B))
    reference = A.astype(np.float64) @ B.astype(np.float64)
    assert relative_error(C, reference, error_scale(A, B)) <= matmul_opt.tolerance("fp32_tensor", K)


@pytest.mark.parametrize("layout", ["A, B", "A^T, B^T"])
@pytest.mark.parametrize("kind, allowed", [("uniform", 1.0), ("spread 2^+-40", 2.0)])
def test_ozaki_keeps_the_contract_against_cublas_on_a_c_it_sums_in_one_chain(kind, allowed, layout):
    """A ragged C past the size from which cuBLAS fp32 sums each output's K in one chain
    (gemm::kChainOrderMinOutputsPerSm outputs per SM), where the scaling check lets the scheme drop a modulus on the
    contract's inputs: its error stays within the contract's multiple of cuBLAS's on the same inputs (the
    seven-moduli record emulates both), with the same bits on a second run. Inputs drawn on the GPU, stored as
    given or transposed, the reference a float64 product there."""
    requires("ozaki_int8", "cublas")
    torch = pytest.importorskip("torch")
    side = int(math.sqrt(4096 * 4096 / 132 * matmul_opt.device_info().sm_count)) + 517
    K = 8003
    generator = torch.Generator(device="cuda").manual_seed(int(np.random.default_rng().integers(2**31)))

    def draw(rows, columns):
        shape = (rows, columns) if layout == "A, B" else (columns, rows)
        x = torch.rand(shape, device="cuda", generator=generator) * 2 - 1
        if kind != "uniform":
            x = x.sign() * torch.exp2((torch.rand(shape, device="cuda", generator=generator) * 2 - 1) * 40)
        return x if layout == "A, B" else x.t()

    a, b = draw(side, K), draw(K, side)
    reference = a.double() @ b.double()
    scale = ((a.double() ** 2).sum(0) * (b.double() ** 2).sum(1)).sum().sqrt()
    C = matmul_opt.run("ozaki_int8", a, b)
    assert torch.equal(C, matmul_opt.run("ozaki_int8", a, b))
    errors = {"ozaki_int8": float(torch.linalg.norm(C.double() - reference) / scale),
              "cublas": float(torch.linalg.norm(matmul_opt.run("cublas", a, b).double() - reference) / scale)}
    assert errors["ozaki_int8"] <= allowed * errors["cublas"], errors


@pytest.mark.parametrize("shape", CHECK_SHAPES, ids=str)
@pytest.mark.parametrize("kind", list(INPUT_KINDS))
def test_ozaki_carries_the_contracts_inputs_itself(kind, shape):
    """Uniform and spread inputs pass the scaling check: the result is the scheme's, not wgmma_3xtf32's bits."""
    requires("ozaki_int8", "wgmma_3xtf32")
    rng = np.random.default_rng()
    M, K, N = shape
    A, B = INPUT_KINDS[kind](rng, (M, K)), INPUT_KINDS[kind](rng, (K, N))
    assert not np.array_equal(matmul_opt.run("ozaki_int8", A, B), matmul_opt.run("wgmma_3xtf32", A, B))


def test_ozaki_gives_each_host_thread_its_own_verdict():
    """Products on several host threads at once, half of them on inputs the scaling check sends to wgmma_3xtf32 and
    half on ones the scheme carries: each thread reads its own verdict back while its residue passes run, and every
    result has the bits of the same product run alone."""
    requires("ozaki_int8", "wgmma_3xtf32")
    from concurrent.futures import ThreadPoolExecutor
    rng = np.random.default_rng()
    M, K, N = CHECK_SHAPES[0]
    jobs = [rescaled(rng, M, K, N, 20) if i % 2 else (rng.uniform(-1, 1, (M, K)).astype(np.float32),
                                                      rng.uniform(-1, 1, (K, N)).astype(np.float32))
            for i in range(8)]
    alone = [matmul_opt.run("ozaki_int8", A, B) for A, B in jobs]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda job: matmul_opt.run("ozaki_int8", *job), jobs))
    for i, (first, second) in enumerate(zip(alone, together)):
        assert np.array_equal(first, second), f"job {i}"
    assert np.array_equal(alone[1], matmul_opt.run("wgmma_3xtf32", *jobs[1]))


def test_ozaki_refuses_a_cuda_graph_capture_and_stays_usable():
    """A product first (the library's modules loaded, as an application's warm-up does), then the same inside a
    capture: refused with a message naming the capture, and the same bits again after it."""
    requires("ozaki_int8")
    torch = pytest.importorskip("torch")
    A = torch.rand(96, 200, device="cuda") * 2 - 1
    B = torch.rand(200, 64, device="cuda") * 2 - 1
    before = matmul_opt.run("ozaki_int8", A, B)
    graph = torch.cuda.CUDAGraph()
    with pytest.raises(matmul_opt.KernelUnavailableError, match="capture"):
        with torch.cuda.graph(graph):
            matmul_opt.run("ozaki_int8", A, B)
    after = matmul_opt.run("ozaki_int8", A, B)
    torch.cuda.synchronize()
    assert torch.equal(before, after)
    reference = A.double() @ B.double()
    assert relative_error(after.cpu().numpy(), reference.cpu().numpy()) <= matmul_opt.tolerance("fp32_tensor", 200)
