"""GPU tier: the dispatchers per accuracy (best_tf32, best_fp32_accurate; cuda/kernels/by_precision.cu) run the
kernel their table names for the shape, which shows in results bitwise equal to that kernel's on the same inputs
(on GPU arrays: the host path multiplies panels of rows, each dispatched on its own shape): a tensor-core kernel from
its thresholds of arithmetic intensity (and, for fp32 accuracy, K) up, the fp32-accurate class's kernel chosen by
the shape first; best below (for fp32 accuracy, pairwise where C is small and K neither one chain nor long, and on
panels that best runs on tiles); the fp32-accurate dispatcher keeps its accuracy contract on the report's accuracy
shape at every K; and matmul(precision=) reaches them from NumPy. (Op combinations, alpha and beta, ragged shapes,
non-finite inputs and determinism: test_gpu_kernels.py runs every registered kernel, these included.)"""
import math

import numpy as np
import pytest

import matmul_opt
from matmul_opt import tune
from contract_checks import assert_keeps_fp32_accurate_contract
from generated_tables import constant
from matmul_opt.accuracy import relative_error, tolerance, uniform

pytestmark = pytest.mark.gpu


def best_streams_small_side(M, N):
    """best's small-side rule (best::streams_small_side) for the shapes here: a side of at most 16 streams (the
    skinny kernel takes it in any layout, and kSkinnyMaxRows and kSkinnyMaxColumns are 16 to 24), one past 24 does
    not (nor does the bulk mainloop take it); between, the layout and the GPU decide, which no shape here asks."""
    side = min(M, N)
    assert not 16 < side <= 24, f"{M} x {N}: a small side that this mirror of best's rule does not follow"
    assert all(16 <= constant(name, "best_table.h") <= 24 for name in ("kSkinnyMaxRows", "kSkinnyMaxColumns"))
    return side <= 16


def fp32_ffma_kernel(M, N, K):
    """best_fp32_accurate's choice off the tensor cores: pairwise for a small C with no short side, over a K neither
    short nor long, and for a panel that best runs on tiles, of few outputs per SM, over a K past one fold and short
    of the long-K rule."""
    outputs_per_sm = M * N / matmul_opt.device_info().sm_count
    below_long_k = K < constant("kLongKMin", "best_table.h")
    if min(M, N) * constant("kPanelMinAspect", "problem.h") > max(M, N):
        small_c = outputs_per_sm <= constant("kShortChainsMaxMnPerSm", "by_precision.cu")
        mid_k = constant("kShortChainsMinK", "by_precision.cu") <= K and below_long_k
        return "pairwise" if small_c and mid_k else "best"
    panel = (outputs_per_sm <= constant("kPanelChainsMaxMnPerSm", "by_precision.cu") and below_long_k
             and K >= constant("kPanelChainsMinK", "by_precision.cu") and not best_streams_small_side(M, N))
    return "pairwise" if panel else "best"


def fp32_accurate_tensor(M, N, K):
    """by_precision.cu's fp32_accurate_tensor: the fp32-accurate tensor-core kernel the shape would take (the register
    split not where best's long-K rule takes the product; whether it can run is asked after the thresholds), and the
    prefix of its thresholds' names in precision_table.h."""
    if (tune.operand_flops_per_byte({"M": M, "N": N, "K": K}) >= constant("kOzakiMinOperandFlopsPerByte")
            and K >= constant("kOzakiMinK")):
        return "ozaki_int8", "kFp32Accurate"
    if tune.takes_register_split({"M": M, "N": N, "K": K}, constant("kRegisterSplitMaxSide"),
                                 constant("kRegisterSplitMinK"), constant("kLongKMaxMnPerSm", "best_table.h"),
                                 matmul_opt.device_info().sm_count):
        return "wgmma_3xtf32_register_split", "kRegisterSplit"
    return "wgmma_3xtf32", "kFp32Accurate"


def takes_longk_tf32(M, N, K):
    """by_precision.cu's takes_longk_tf32, as the tuner models it, with the committed table's bounds."""
    return tune.takes_longk_tf32({"M": M, "N": N, "K": K}, constant("kLongKMaxMnPerSm", "best_table.h"),
                                 constant("kLongkMinSmallSide", "best_table.h"), matmul_opt.device_info().sm_count)


def tensor_kernel(dispatcher, M, N, K):
    """The dispatcher's tensor-core kernel for the shape, its two intensity thresholds and its least K."""
    if dispatcher == "best_tf32":
        if takes_longk_tf32(M, N, K):
            return "longk_tf32", 0, 0, 1
        return "wgmma_tf32", constant("kTf32MinFlopsPerByte"), constant("kTf32MinOperandFlopsPerByte"), 1
    kernel, prefix = fp32_accurate_tensor(M, N, K)
    return (kernel, constant(f"{prefix}MinFlopsPerByte"), constant(f"{prefix}MinOperandFlopsPerByte"),
            max(constant("kFp32AccurateMinK"), constant("kRegisterSplitMinK") if prefix == "kRegisterSplit" else 1))


DISPATCHERS = ("best_tf32", "best_fp32_accurate")
# From memory-bound to compute-bound, K from short to long, a short side of C at a high intensity, panels of few
# rows and of few columns (up to 32 and past it) over K within one fold and past it, panels of either
# orientation over a long K whose smaller side the register-split kernel takes, and long-K products on either side of
# longk_tf32's bounds (C of 12000, 16900, 19182, 19321, 36000 and 60000 outputs; a smaller side of 8 and 9).
SHAPES = [(8, 3000, 2000), (3000, 2500, 48), (100, 100, 70000), (1500, 1200, 900), (2048, 2048, 2048),
          (140, 3500, 3000), (200, 300, 1000), (70, 90, 3), (64, 3000, 1000), (3000, 28, 900), (2500, 45, 60),
          (12, 5000, 4500), (5000, 100, 4500), (90, 9000, 5000), (300, 6000, 4200), (20, 200, 50000),
          (300, 40, 40000), (130, 130, 30000), (138, 139, 40000), (139, 139, 40000), (180, 200, 30000),
          (200, 300, 20000), (9, 100, 30000), (8, 64, 30000)]


def expected_kernel(dispatcher, M, N, K):
    tensor, min_intensity, min_operand_intensity, min_k = tensor_kernel(dispatcher, M, N, K)
    shape = {"M": M, "N": N, "K": K}
    on_tensor_cores = (K >= min_k and tune.flops_per_byte(shape) >= min_intensity
                       and tune.operand_flops_per_byte(shape) >= min_operand_intensity)
    if on_tensor_cores and matmul_opt.kernel_available(tensor):
        return tensor
    return fp32_ffma_kernel(M, N, K) if dispatcher == "best_fp32_accurate" else "best"


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("dispatcher", DISPATCHERS)
def test_the_dispatcher_runs_the_kernel_its_table_names(dispatcher, shape):
    torch = pytest.importorskip("torch")
    M, N, K = shape
    rng = np.random.default_rng(M + N + K)
    A, B = uniform(rng, (M, K)), uniform(rng, (K, N))
    a, b = torch.from_numpy(A).cuda(), torch.from_numpy(B).cuda()
    C = matmul_opt.run(dispatcher, a, b).cpu().numpy()
    chosen = expected_kernel(dispatcher, M, N, K)
    np.testing.assert_array_equal(C, matmul_opt.run(chosen, a, b).cpu().numpy(),
                                  err_msg=f"{dispatcher} did not run {chosen}")
    arithmetic = {info.name: info.arithmetic for info in matmul_opt.kernels()}[dispatcher]
    assert relative_error(C, A.astype(np.float64) @ B) <= tolerance(arithmetic, K)


def ozaki_boundary_shape(side):
    """A ragged product just under (side "under") or just past ("over") the operands' intensity and the K from which
    the fp32-accurate class runs ozaki_int8, read from its table: a cube (whose operands' intensity is a quarter of its
    side), or past a bound that no product reaches (infinite), the largest product of the ozaki sweep. Side "panel":
    C of 256 rows by eight times that cube's width, over four times its K: more FLOPs than products ozaki_int8 takes,
    but operands whose passes outweigh its product."""
    least_intensity, least_k = constant("kOzakiMinOperandFlopsPerByte"), constant("kOzakiMinK")
    if math.isinf(least_intensity) or math.isinf(least_k):
        return max(tune.OZAKI_SHAPES, key=lambda shape: math.prod(shape))
    n = max(math.ceil(4 * least_intensity), math.ceil(least_k))
    return {"under": (n - 3,) * 3, "over": (n + 1, n + 3, n + 1), "panel": (256, 8 * n + 3, 4 * n + 1)}[side]


@pytest.mark.parametrize("side", ["under", "over", "panel"])
def test_the_fp32_accurate_dispatcher_takes_ozaki_int8_from_its_bounds(side):
    """Just under the operands' intensity and K from which the fp32-accurate class runs ozaki_int8, just past them,
    and a panel of more FLOPs that does not reach them: the bits of the kernel expected_kernel names, on inputs drawn
    on the GPU (a float64 reference of this size is what the kernels' own tests check at smaller sizes)."""
    torch = pytest.importorskip("torch")
    M, N, K = ozaki_boundary_shape(side)
    generator = torch.Generator(device="cuda").manual_seed(M + K)
    a = torch.rand(M, K, device="cuda", generator=generator) * 2 - 1
    b = torch.rand(K, N, device="cuda", generator=generator) * 2 - 1
    chosen = expected_kernel("best_fp32_accurate", M, N, K)
    if side == "panel" and not math.isinf(constant("kOzakiMinK")):
        assert 2 * M * N * K > 2 * math.prod(ozaki_boundary_shape("over")) and chosen != "ozaki_int8"
    assert torch.equal(matmul_opt.run("best_fp32_accurate", a, b), matmul_opt.run(chosen, a, b)), chosen


@pytest.mark.parametrize("K", [1, 4, 8, 16, 64, 256, 1024, 4096, 16384])
def test_the_fp32_accurate_dispatcher_keeps_its_contract(K):
    """The report's accuracy shape (256 x K x 256), both input kinds, fresh inputs."""
    assert_keeps_fp32_accurate_contract("best_fp32_accurate", K)


def test_matmul_picks_the_dispatcher_of_the_precision():
    rng = np.random.default_rng(3)
    A, B = uniform(rng, (700, 900)), uniform(rng, (900, 500))
    for precision, dispatcher in (("highest", "best_fp32_accurate"), (None, "best_fp32_accurate"),
                                  ("high", "best_tf32"), ("medium", "best_tf32")):
        np.testing.assert_array_equal(matmul_opt.matmul(A, B, precision=precision),
                                      matmul_opt.run(dispatcher, A, B), err_msg=str(precision))
    out = np.full((700, 500), np.nan, dtype=np.float32)
    assert matmul_opt.matmul(A, B, out, kernel="best") is out
    np.testing.assert_array_equal(out, matmul_opt.run("best", A, B))
