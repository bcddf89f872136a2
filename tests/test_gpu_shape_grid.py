"""GPU tier: the products of the shape grid's classes (matmul_opt.shape_grid) against float64, through best on
every shape of the grid and of the held-out grid, and through the skinny kernel on every small side, orientation,
op combination and alignment, with K short, ragged and long enough to be split across blocks; results bitwise
reproducible; the skinny kernel's error within cuBLAS fp32's where it sums all of K in one slice; and two of best's
rules shown by bits equal to those of the kernel they name (a small side against a long one at a long K; stream-K on
the same tile over many waves)."""
import numpy as np
import pytest

import matmul_opt
from matmul_opt import _library
from matmul_opt.accuracy import FP32_ACCURATE_CONTRACT, INPUT_KINDS, tolerance
from matmul_opt.shape_grid import GRID, HELD_OUT
from matmul_opt.tune import config_names

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")

from torch_products import OP_IDS, OPS, gemm, operands, relative_error, unaligned_operands  # noqa: E402


def product(kernel, M, N, K, ops=(0, 0), seed=0):
    """(C, op(A), op(B)) of a fresh product of `kernel`; C starts as NaN, so an unwritten element fails."""
    A, B, a, b = operands(M, N, K, *ops, seed=seed)
    C = torch.full((M, N), float("nan"), device="cuda")
    gemm(kernel, *ops, A, B, C)
    return C, a, b


def assert_accurate(C, a, b, K, what):
    error = relative_error(C, a, b)
    assert error <= tolerance("fp32", K), f"{what}: relative error {error:.3e}"


@pytest.mark.parametrize("shape", GRID + HELD_OUT, ids=lambda s: f"{s.klass}-{s.name}")
def test_best_on_the_shape_grid(shape):
    C, a, b = product("best", shape.M, shape.N, shape.K, seed=shape.M + shape.K)
    assert_accurate(C, a, b, shape.K, f"best at {shape.name}")


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", HELD_OUT, ids=lambda s: f"{s.klass}-{s.name}")
def test_best_on_held_out_shapes_in_every_op_combination(shape, ops):
    C, a, b = product("best", shape.M, shape.N, shape.K, ops, seed=shape.N + 2 * ops[0] + ops[1])
    assert_accurate(C, a, b, shape.K, f"best {ops} at {shape.name}")


SMALL_SIDES = [1, 2, 3, 4, 5, 8, 13, 16, 17, 29, 32]


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("orientation", ["rows", "columns"])
@pytest.mark.parametrize("side", SMALL_SIDES)
def test_skinny_takes_every_small_side_orientation_and_op_combination(side, orientation, ops):
    """The large side 1027 (a ragged last quad and block), K = 3001 (a ragged last step)."""
    M, N = (side, 1027) if orientation == "rows" else (1027, side)
    C, a, b = product("skinny", M, N, 3001, ops, seed=side + 2 * ops[0] + ops[1])
    assert_accurate(C, a, b, 3001, f"skinny {M}x{N}, ops {ops}")


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(1, 1, 1), (3, 5, 2), (16, 16, 7), (5, 40000, 9), (40000, 2, 13), (1, 1, 300001),
                                   (13, 7, 250000), (2, 3000, 60000), (9000, 4, 40000), (40, 11, 300000),
                                   (32, 30, 200000), (4, 3, 90001), (4, 4, 50000), (2, 1, 120001), (1, 3, 70003)],
                         ids=lambda s: "x".join(map(str, s)))
def test_skinny_on_short_and_long_k(shape, ops):
    """K of one element, of a few, and long enough that the launcher splits it across blocks (the split-K
    reduction with many slices); C of at most 4 x 4, whose lanes take k spread out, taken as it is or transposed
    by its layout rather than by which side is smaller."""
    M, N, K = shape
    C, a, b = product("skinny", M, N, K, ops, seed=K + 2 * ops[0] + ops[1])
    assert_accurate(C, a, b, K, f"skinny {M}x{N}x{K}, ops {ops}")


def assert_skinny_reproducible(M, N, K, ops, seed):
    """skinny's product twice into NaN-filled C: accurate, and the same bits both times."""
    A, B, a, b = operands(M, N, K, *ops, seed=seed)
    results = []
    for _ in range(2):
        C = torch.full((M, N), float("nan"), device="cuda")
        gemm("skinny", *ops, A, B, C)
        results.append(C)
    assert_accurate(results[0], a, b, K, f"skinny {M}x{N}x{K}, ops {ops}")
    assert torch.equal(results[0], results[1])


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(1, 4096, 4096), (1, 5000, 9000), (6000, 3, 5000), (8, 4096, 4096),
                                   (4096, 13, 4096)],
                         ids=lambda s: "x".join(map(str, s)))
def test_skinny_sums_a_clusters_slices_in_a_fixed_order(shape, ops):
    """Large sides that leave much of the GPU idle: K cut into 2 to 8 slices, which a thread block cluster adds up
    in shared memory (sm_90), the same bits every time."""
    assert_skinny_reproducible(*shape, ops, seed=shape[0] + shape[1] + 2 * ops[0] + ops[1])


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("orientation", ["rows", "columns"])
@pytest.mark.parametrize("side, large", [(1, 12004), (3, 12004), (5, 6004), (8, 6004), (13, 12004), (17, 6004),
                                         (20, 6004), (24, 1028), (24, 6004), (24, 12004)],
                         ids=lambda v: str(v))
def test_skinny_streams_wide_products_in_bulk(side, large, orientation, ops):
    """Rows of the large operand 16-byte aligned, so that on sm_90 the bulk mainloop runs where the large side is
    wide (6004: 47 columns of 128, K cut into slices, for the large operand along L and more than 4 rows; 12004: 94
    columns, one slice) or where the small side is past what the other mainloops take (24 columns of a 1028-row A
    stored along K), and the register mainloops in the other cases; a ragged last column and a ragged last K tile
    (K = 2500); the same bits twice."""
    M, N = (side, large) if orientation == "rows" else (large, side)
    assert_skinny_reproducible(M, N, 2500, ops, seed=side + large + 2 * ops[0] + ops[1])


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(9000, 24, 700), (8996, 11, 1100), (20, 9000, 1000), (11, 9000, 900)],
                         ids=lambda s: "x".join(map(str, s)))
def test_skinny_streams_in_bulk_with_the_small_sides_rows_in_groups(shape, ops):
    """71 columns of 128, too many for two K slices each on 132 SMs and too few to fill them with one: the bulk
    mainloop takes Y's rows in 3 groups (8, 4, 8 and 4 rows of sums per block; the last group of 11 and of 20 rows
    partly past S), neighbouring blocks over the same columns; a ragged last column (8996) and a ragged last K tile;
    the same bits twice. 11 x 9000 with X along K (ops NT, TT), 29 tiles of K, stays with the staged mainloop."""
    assert_skinny_reproducible(*shape, ops, seed=shape[0] + shape[1] + 2 * ops[0] + ops[1])


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(12, 3000, 3000), (3000, 19, 5001)], ids=lambda s: "x".join(map(str, s)))
def test_skinny_streams_narrow_large_sides_in_bulk_past_8_rows(shape, ops):
    """24 columns of 128, fewer than the register mainloops' width rule asks, with X along L (ops NN and TN for
    12 x 3000, TN and TT for 3000 x 19) and more than 8 rows of Y: the bulk mainloop in 5 K slices that a cluster
    adds up (on 132 SMs), rather than the register mainloop's pass over X per group of 8 rows; the same bits twice."""
    assert_skinny_reproducible(*shape, ops, seed=shape[0] + shape[1] + 2 * ops[0] + ops[1])


def test_best_leaves_a_small_side_against_a_long_one_to_skinny_at_a_long_k():
    """1 x 20000 at K = 20000 has 151 outputs per SM, within the long-K rule's bound, but its 1.6 GB operand B, not
    tiles, sets its time: best runs the skinny kernel (the same bits)."""
    M, N, K = 1, 20000, 20000
    A, B, _, _ = operands(M, N, K, 0, 0, seed=N)
    results = []
    for kernel in ("best", "skinny"):
        C = torch.full((M, N), float("nan"), device="cuda")
        gemm(kernel, 0, 0, A, B, C)
        results.append(C)
    assert torch.equal(*results)


def test_best_shares_a_ragged_last_wave_of_many_out_by_k():
    """C in tma 128x256x32 tiles making about 3.25 waves on this GPU's SMs, the last about a quarter full: best runs
    the same tile shared out by K (streamk 128x256x32 tail3, whose partial sums are added in a fixed order: the same
    bits as forced)."""
    if not matmul_opt.kernel_available("streamk"):
        pytest.skip("streamk is not available on this machine")
    sms = matmul_opt.device_info().sm_count
    M, N, K = 128 * -(-13 * sms // 64), 4096, 1024  # 16 tile columns; 3.25 x sms tiles, rounded up to a tile row
    lib = _library.library()
    A, B, _, _ = operands(M, N, K, 0, 0, seed=M)
    results = []
    try:
        for config in (-1, config_names().index("streamk 128x256x32 tail3")):
            _library.check(lib.mm_best_force(config, 0 if config >= 0 else 1))
            C = torch.full((M, N), float("nan"), device="cuda")
            gemm("best", 0, 0, A, B, C)
            results.append(C)
    finally:
        _library.check(lib.mm_best_force(-1, 1))
    assert torch.equal(*results)


@pytest.mark.parametrize("kind", list(INPUT_KINDS))
@pytest.mark.parametrize("shape", [(3, 11008, 4096), (11, 14336, 2500), (20, 12004, 3000), (12004, 5, 3000)],
                         ids=lambda s: "x".join(map(str, s)))
def test_skinny_keeps_cublas_accuracy_over_a_whole_k(shape, kind):
    """A large side wide enough for one K slice (the bulk mainloop, no split), so that every output is one lane's sum
    over all of K, folded every few tiles: its error within the fp32-accurate contract against cuBLAS fp32's
    (docs/experiments/2026-12-03-pairwise.md measured the unfolded sums at 1.5 to 1.9x cuBLAS's on uniform inputs)."""
    M, N, K = shape
    rng = np.random.default_rng(M + N + K)
    a = torch.from_numpy(INPUT_KINDS[kind](rng, (M, K))).cuda()
    b = torch.from_numpy(INPUT_KINDS[kind](rng, (K, N))).cuda()
    errors = {name: relative_error(matmul_opt.run(name, a, b), a, b) for name in ("skinny", "cublas")}
    assert errors["skinny"] <= FP32_ACCURATE_CONTRACT[kind] * errors["cublas"], f"{kind}, {shape}: {errors}"


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(7, 901, 1203), (901, 7, 1203), (2, 3, 100003), (27, 500, 3001)], ids=lambda s: "x".join(map(str, s)))
def test_skinny_reads_unaligned_operands(shape, ops):
    M, N, K = shape
    A, B, a, b = unaligned_operands(M, N, K, *ops, seed=M + N)
    C = torch.full((M, N), float("nan"), device="cuda")
    gemm("skinny", *ops, A, B, C)
    assert_accurate(C, a, b, K, f"skinny {shape}, ops {ops}")


@pytest.mark.parametrize("kernel, M, K", [("skinny", 5, 300), ("best", 5, 300), ("shortk", 300, 7), ("best", 300, 7)],
                         ids=["skinny", "best-small-side", "shortk", "best-short-k"])
def test_small_side_and_short_k_products_propagate_nan_and_inf_as_numpy(kernel, M, K, rng):
    A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
    B = rng.uniform(-1, 1, (K, 200)).astype(np.float32)
    A[2, 3], A[4, K - 1], B[K // 2, 150] = np.nan, np.inf, -np.inf
    expected = A.astype(np.float64) @ B.astype(np.float64)
    C = matmul_opt.run(kernel, A, B)
    assert np.array_equal(np.isnan(C), np.isnan(expected))
    assert np.array_equal(np.isposinf(C), np.isposinf(expected))
    assert np.array_equal(np.isneginf(C), np.isneginf(expected))


@pytest.mark.parametrize("shape", [(8, 4096, 4096), (4096, 16, 4096), (16, 16, 500000), (64, 64, 1048576),
                                   (32, 4096, 4096), (3001, 257, 5003)], ids=lambda s: "x".join(map(str, s)))
def test_best_gives_the_same_bits_every_time(shape):
    """The split-K slices and the partial sums within blocks are added in a fixed order."""
    M, N, K = shape
    A, B, _, _ = operands(M, N, K, 0, 0, seed=5)
    results = []
    for _ in range(3):
        C = torch.full((M, N), float("nan"), device="cuda")
        gemm("best", 0, 0, A, B, C)
        results.append(C)
    assert torch.equal(results[0], results[1]) and torch.equal(results[0], results[2])


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(8193, 129, 1000), (3001, 257, 5003), (2561, 1025, 3001), (4225, 193, 2000)],
                         ids=lambda s: "x".join(map(str, s)))
def test_best_cuts_a_ragged_edge_within_c(shape, ops):
    """Shapes whose last row or column of tiles holds one row or column of C, which best runs as a bulk of whole
    tiles and edges of their own (its ragged-edge rule): every element of C written, nothing written beside C (C is
    a view into a larger NaN buffer), the same bits twice."""
    M, N, K = shape
    A, B, a, b = operands(M, N, K, *ops, seed=M + N + 2 * ops[0] + ops[1])
    results = []
    for _ in range(2):
        frame = torch.full((M + 2, N + 5), float("nan"), device="cuda")
        C = frame[1:M + 1, 2:N + 2]
        gemm("best", *ops, A, B, C)
        outside = torch.ones_like(frame, dtype=torch.bool)
        outside[1:M + 1, 2:N + 2] = False
        assert torch.isnan(frame[outside]).all(), f"best {shape} {ops} wrote beside C"
        results.append(C.clone())
    assert_accurate(results[0], a, b, K, f"best {shape}, ops {ops}")
    assert torch.equal(results[0], results[1])


@pytest.mark.parametrize("shape", [(1153, 1153, 1153), (8193, 129, 1000)], ids=lambda s: "x".join(map(str, s)))
def test_best_runs_a_cut_s_edges_beside_its_bulk_in_the_callers_stream_order(shape):
    """A cut product's edges run on a side stream (core/schedule/beside.h) that starts after the caller's stream has
    written the operands and that the caller's stream waits for before it reads C: on a stream other than the default
    one, A is written only after a 20 ms spin and C is copied right after the call; both orders hold (no NaN, the
    product's error), and the edges (skinny, and any reduction of their K slices) ran beside the bulk on another
    stream."""
    M, N, K = shape
    A, B, a, b = operands(M, N, K, 0, 0, seed=M + N)
    # Rows padded to 4 floats, as the benchmark lays them out (the layout whose tiles best's tables cut here).
    pending = torch.full((M, K + -K % 4), float("nan"), device="cuda")[:, :K]
    C = torch.full((M, N + -N % 4), float("nan"), device="cuda")[:, :N]
    B = torch.nn.functional.pad(B, (0, -N % 4))[:, :N]
    stream = torch.cuda.Stream()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as profile:
        with torch.cuda.stream(stream):
            torch.cuda._sleep(40_000_000)  # about 20 ms at 2 GHz
            pending.copy_(A)
            gemm("best", 0, 0, pending, B, C, wait=False)
            copied = C.clone()
        torch.cuda.synchronize()
    assert_accurate(copied, a, b, K, f"best {shape} on a side stream, C as the caller's stream read it")
    streams_of = {}  # edge kernels, split-K reductions (the bulk's or an edge's), and the rest: the caller's stream
    for event in profile.profiler.kineto_results.events():
        if event.device_type() == torch.autograd.DeviceType.CUDA and "sleep" not in event.name():
            kind = "edge" if "skinny" in event.name() else "reduction" if "reduce" in event.name() else "caller"
            streams_of.setdefault(kind, set()).add(event.device_resource_id())
    assert streams_of.get("edge"), f"best {shape}: no edge (skinny) kernel ran; the shape is no longer cut"
    assert not streams_of["edge"] & streams_of["caller"], f"best {shape}: the edges ran on the bulk's stream"


@pytest.mark.parametrize("shape", [(1153, 1153, 1153), (8193, 129, 1000), (3001, 257, 5003)],
                         ids=lambda s: "x".join(map(str, s)))
def test_best_gives_a_cut_the_same_bits_with_its_edges_beside_or_after_the_bulk(shape):
    """mm_best_edges_beside(0) runs a cut's edges after the bulk on the caller's stream: the same kernels on the same
    parts of C, so the same bits as beside it (operands laid out as the benchmark does, where these shapes are cut).
    Beside the bulk an edge's K slices add up through the workspace, after it in clusters where they fit (3001x257x5003:
    its column edge, along K in two slices): the same bits too."""
    M, N, K = shape
    A, B, a, b = operands(M, N, K, 0, 0, seed=M + K)
    A = torch.nn.functional.pad(A, (0, -K % 4))[:, :K]
    B = torch.nn.functional.pad(B, (0, -N % 4))[:, :N]
    lib = _library.library()
    results = {}
    try:
        for beside in (0, 1):
            _library.check(lib.mm_best_edges_beside(beside))
            C = torch.full((M, N + -N % 4), float("nan"), device="cuda")[:, :N]
            gemm("best", 0, 0, A, B, C)
            results[beside] = C
    finally:
        _library.check(lib.mm_best_edges_beside(1))
    assert_accurate(results[0], a, b, K, f"best {shape}, edges after the bulk")
    assert torch.equal(results[0], results[1])
