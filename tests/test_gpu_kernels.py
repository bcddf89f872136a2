"""GPU tier: every registered kernel against a float64 NumPy reference on fresh random data.

Error measure: ||C - ref||_F / ||ref||_F, bounded by matmul_opt.tolerance (fp32: 4 * eps * sqrt(K), see its
docstring for why; tf32 kernels: 1e-2). The library fills its device copy of C with NaN before every launch,
and the tests also check that every element is finite, so an element a kernel never writes fails.
"""
import functools
import itertools

import numpy as np
import pytest

import matmul_opt
from matmul_opt import _library
from matmul_opt.accuracy import relative_error
from matmul_opt.tune import config_names

pytestmark = pytest.mark.gpu

SHAPES = [  # (M, N, K)
    (1, 1, 1),
    (2, 3, 5),
    (64, 64, 64),
    (256, 256, 256),
    (1024, 1024, 1024),
    (31, 31, 31),
    (33, 33, 33),
    (127, 129, 127),
    (129, 127, 129),
    (1023, 1023, 1023),
    (1025, 1025, 1025),
    (1023, 1021, 1019),
    (100, 102, 98),       # N, K not multiples of 4: unaligned rows on the device too
    (128, 130, 129),
    (4096, 16, 64),       # tall-skinny
    (16, 4096, 128),      # short-wide
    (8, 12, 20000),       # K much larger than M and N
    (64, 64, 16385),
    (300_000, 3, 2),      # taller than one grid: exercises the row slabs
    # More 128 x 128 output tiles than the H200 has SMs (144 on 132), so that a persistent kernel's ragged last wave
    # goes in K pieces (wgmma_3xtf32: gemm::split_tail, 4 pieces); then the same with ragged edges in those tiles
    # (156 tiles, 5 pieces).
    (1536, 1536, 512),
    (1530, 1537, 1000),
]

KERNELS = matmul_opt.kernels()


def kernel_ids(infos):
    return [info.name for info in infos]


def available(name):
    return matmul_opt.kernel_available(name)


@functools.lru_cache(maxsize=None)
def problem(shape):
    """Inputs and float64 reference per shape, drawn fresh each session and shared by all kernels."""
    M, N, K = shape
    rng = np.random.default_rng()
    A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
    B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
    return A, B, A.astype(np.float64) @ B.astype(np.float64)


def check(info, C, reference, K):
    assert C.shape == reference.shape and C.dtype == np.float32
    assert np.all(np.isfinite(C)), f"{info.name}: unwritten (NaN) or non-finite elements"
    error = relative_error(C, reference)
    assert error <= matmul_opt.tolerance(info.arithmetic, K), f"{info.name}: relative error {error:.3e}"


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("info", KERNELS, ids=kernel_ids(KERNELS))
def test_kernel_matches_float64_reference(info, shape):
    if not available(info.name):
        pytest.skip(f"{info.name} is not available on this machine")
    A, B, reference = problem(shape)
    check(info, matmul_opt.run(info.name, A, B), reference, shape[2])


LAYOUTS = {
    "fortran": lambda X: np.asfortranarray(X),
    "transposed": lambda X: np.ascontiguousarray(X.T).T,
    "row_slice": lambda X: np.pad(X, ((0, 0), (1, 6)))[:, 1:-6],   # ld > columns, unaligned start
    "strided_rows": lambda X: np.repeat(X, 2, axis=0)[::2],
    "strided_columns": lambda X: np.repeat(X, 2, axis=1)[:, ::2],
    "negative_strides": lambda X: X[::-1, ::-1].copy()[::-1, ::-1],
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("info", KERNELS, ids=kernel_ids(KERNELS))
def test_any_memory_layout_gives_the_right_product(info, layout, rng):
    if not available(info.name):
        pytest.skip(f"{info.name} is not available on this machine")
    M, N, K = 77, 65, 93
    A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
    B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
    reference = A.astype(np.float64) @ B.astype(np.float64)
    A2, B2 = LAYOUTS[layout](A), LAYOUTS[layout](B)
    assert np.array_equal(A2, A) and np.array_equal(B2, B)
    check(info, matmul_opt.run(info.name, A2, B2), reference, K)


def planted_problem(info, rng, bound):
    """Fresh 40 x 36 and 36 x 44 inputs uniform in [-bound, bound], for a test to plant special values in (skips when
    the kernel cannot run here)."""
    if not available(info.name):
        pytest.skip(f"{info.name} is not available on this machine")
    return (rng.uniform(-bound, bound, (40, 36)).astype(np.float32),
            rng.uniform(-bound, bound, (36, 44)).astype(np.float32))


@pytest.mark.parametrize("info", KERNELS, ids=kernel_ids(KERNELS))
def test_nan_and_inf_propagate_as_in_numpy(info, rng):
    A, B = planted_problem(info, rng, 1.0)
    A[3, 7] = np.nan
    A[10, 2] = np.inf
    B[5, 20] = -np.inf
    expected = A.astype(np.float64) @ B.astype(np.float64)
    C = matmul_opt.run(info.name, A, B)
    assert np.array_equal(np.isnan(C), np.isnan(expected))
    assert np.array_equal(np.isposinf(C), np.isposinf(expected))
    assert np.array_equal(np.isneginf(C), np.isneginf(expected))
    finite = np.isfinite(expected)
    error = relative_error(C[finite], expected[finite])
    assert error <= matmul_opt.tolerance(info.arithmetic, 36), f"{info.name}: relative error {error:.3e}"


# The tf32 rungs round every input to nearest (cvt.rna) before the tensor cores see it, so their error stays within
# 1.1x cuBLAS TF32's on the same inputs, in every layout (a truncated operand, which is what the tensor cores make of
# raw fp32 in shared memory, gives about 1.6x).
TF32_RUNGS = [info for info in KERNELS if info.arithmetic == "tf32" and not info.name.startswith("cublas")]


@pytest.mark.parametrize("K", [256, 4096])
@pytest.mark.parametrize("ops", ["NN", "NT", "TN", "TT"])
@pytest.mark.parametrize("info", TF32_RUNGS, ids=kernel_ids(TF32_RUNGS))
def test_tf32_rungs_are_as_accurate_as_cublas_tf32(info, ops, K):
    if not (available(info.name) and available("cublas_tf32")):
        pytest.skip(f"{info.name} or cublas_tf32 is not available on this machine")
    A, B, reference = problem((256, 256, K))
    A_in = np.asfortranarray(A) if ops[0] == "T" else A  # Fortran order: the kernel reads op(A) = T
    B_in = np.asfortranarray(B) if ops[1] == "T" else B
    error = relative_error(matmul_opt.run(info.name, A_in, B_in), reference)
    cublas_error = relative_error(matmul_opt.run("cublas_tf32", A, B), reference)
    assert error <= 1.1 * cublas_error, f"{info.name} {ops}: {error:.3e} against cuBLAS TF32's {cublas_error:.3e}"


# Shapes on which wgmma_tf32's rule takes each of its tile widths in some op combination: the wide and the narrow
# tile, and a small side's of 8, 16, 24, 32 and 64 columns (ragged in each), one over a K longer than a TF32 chain.
# With B stored N x K (NT, TT) and M < N the kernel reads B as stored in C's transpose, else B is rounded into a copy.
# 2048 x 2100 and 2100 x 2048 fill 136 wide tiles, more than the H200's 132 SMs: the last wave's four go in K
# pieces (gemm::split_tail), in C's transpose and on the direct path.
WGMMA_TF32_SHAPES = [(2048, 2100, 256), (2100, 2048, 256), (300, 1000, 512), (5, 3000, 700), (3000, 13, 900),
                     (20, 2500, 1500), (2900, 30, 600), (50, 1900, 2100), (40, 33, 70000)]


def wgmma_tf32_error_against_cublas(shape, ops):
    A, B, reference = problem(shape)
    A_in = np.asfortranarray(A) if ops[0] == "T" else A
    B_in = np.asfortranarray(B) if ops[1] == "T" else B
    error = relative_error(matmul_opt.run("wgmma_tf32", A_in, B_in), reference)
    return error, relative_error(matmul_opt.run("cublas_tf32", A, B), reference)


@pytest.mark.parametrize("ops", ["NN", "NT", "TN", "TT"])
@pytest.mark.parametrize("shape", WGMMA_TF32_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_wgmma_tf32_is_as_accurate_as_cublas_tf32_in_every_tile_width(shape, ops):
    """wgmma_tf32 runs 128 x 256 tiles on C that fills them and the GPU, 128 x 128 tiles on a small or narrow C, and
    tiles fitted to a small side of C (cuda/kernels/wgmma_tf32_sm90a.cu, tile_width)."""
    if not (available("wgmma_tf32") and available("cublas_tf32")):
        pytest.skip("wgmma_tf32 or cublas_tf32 is not available on this machine")
    error, cublas_error = wgmma_tf32_error_against_cublas(shape, ops)
    assert error <= 1.1 * cublas_error, f"{shape} {ops}: {error:.3e} against cuBLAS TF32's {cublas_error:.3e}"


@pytest.mark.parametrize("paths", [(1, 1), (0, 0)], ids=["transposed-k-major-and-tails", "copy-and-no-tails"])
@pytest.mark.parametrize("width", [8, 16, 24, 32, 64, 128, 256])
def test_wgmma_tf32_is_as_accurate_as_cublas_tf32_in_each_forced_width(width, paths):
    """Every width on every path, forced (mm_wgmma_tf32_force) where the rule would not take it: tiles narrower and
    wider than C's columns, C's transpose read with B stored either way, and the direct path; with the last wave's
    tiles in K pieces where the model takes them (2000 x 300 x 700 in some widths) and never."""
    if not (available("wgmma_tf32") and available("cublas_tf32")):
        pytest.skip("wgmma_tf32 or cublas_tf32 is not available on this machine")
    lib = _library.library()
    try:
        _library.check(lib.mm_wgmma_tf32_force(width, *paths))
        for shape in [(300, 1000, 512), (2900, 30, 600), (2000, 300, 700)]:
            for ops in ["NN", "NT", "TN"]:
                error, cublas_error = wgmma_tf32_error_against_cublas(shape, ops)
                assert error <= 1.1 * cublas_error, f"{shape} {ops}: {error:.3e} against {cublas_error:.3e}"
    finally:
        _library.check(lib.mm_wgmma_tf32_force(0, 1, 1))


# fp32 and fp32_tensor kernels: tf32 ones round values this close to the fp32 maximum up to Inf, as documented.
FP32_ACCURATE = [info for info in KERNELS if info.arithmetic != "tf32"]


@pytest.mark.parametrize("info", FP32_ACCURATE, ids=kernel_ids(FP32_ACCURATE))
def test_values_near_the_fp32_maximum_give_the_fp32_product(info, rng):
    """3.4025e38 rounds up past the fp32 maximum as TF32 (3xTF32's big part is Inf there); the products stay finite."""
    A, B = planted_problem(info, rng, 0.25)
    A[5, 3], B[7, 11] = np.float32(3.4025e38), np.float32(-3.4025e38)
    expected = A.astype(np.float64) @ B.astype(np.float64)
    C = matmul_opt.run(info.name, A, B)
    assert np.all(np.isfinite(C)), f"{info.name}: non-finite elements where the product is finite"
    error = relative_error(C, expected)
    assert error <= matmul_opt.tolerance(info.arithmetic, 36), f"{info.name}: relative error {error:.3e}"


def test_k_zero_through_the_c_api_writes_zeros():
    lib = _library.library()
    C = np.full((3, 4), np.nan, dtype=np.float32)
    A = np.empty((3, 0), dtype=np.float32)
    B = np.empty((0, 4), dtype=np.float32)
    status = lib.mm_matmul_host(b"advanced", 3, 4, 0, A.ctypes.data, 1, B.ctypes.data, 4, C.ctypes.data, 4)
    _library.check(status)
    assert np.array_equal(C, np.zeros((3, 4), dtype=np.float32))


def test_out_of_memory_is_a_memory_error_and_the_library_stays_usable(rng):
    free = matmul_opt.device_info().free_memory_bytes
    side = int((free / 4) ** 0.5) + 4096  # one square matrix alone exceeds free memory
    with pytest.raises(MemoryError) as excinfo:
        matmul_opt.benchmark("advanced", side, side, side)
    assert isinstance(excinfo.value, matmul_opt.DeviceMemoryError)
    assert "asked for" in str(excinfo.value) and "free" in str(excinfo.value)
    A = rng.uniform(-1, 1, (50, 60)).astype(np.float32)
    B = rng.uniform(-1, 1, (60, 70)).astype(np.float32)
    check(KERNELS[2], matmul_opt.run("advanced", A, B), A.astype(np.float64) @ B, 60)


def test_benchmark_reports_positive_time_and_consistent_gflops():
    result = matmul_opt.benchmark("advanced", 512, 512, 512, warmup=1, repetitions=3)
    assert result.ms > 0
    assert result.gflops == pytest.approx(2 * 512**3 / (result.ms * 1e6))


def test_device_info_describes_a_real_gpu():
    info = matmul_opt.device_info()
    assert info.name and info.sm_count > 0 and info.compute_capability[0] >= 5
    assert 0 < info.free_memory_bytes <= info.total_memory_bytes
    assert info.sm_clock_mhz > 100 and info.fp32_peak_gflops > 0


def test_main_job_verifies_and_times_every_kernel():
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "matmul_opt", "--sizes", "256", "--verify-size", "256", "--repetitions", "3"],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    for info in KERNELS:
        if available(info.name):
            assert f"256x256x256       {info.name}" in result.stdout


def test_every_tile_configuration_of_best_is_correct(rng):
    """best's table reaches each configuration only on some shapes: force every one, split and unsplit
    (the tiled configurations split K themselves), over ragged and long-K shapes."""
    lib = _library.library()
    best = next(info for info in KERNELS if info.name == "best")
    shapes = [(1, 1, 1), (127, 129, 131), (300, 260, 1000), (1025, 1023, 77), (8, 12, 20000)]
    try:
        for config in range(lib.mm_best_config_count()):
            for splits in (1, 3):
                _library.check(lib.mm_best_force(config, splits))
                for M, N, K in shapes:
                    A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
                    B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
                    check(best, matmul_opt.run("best", A, B), A.astype(np.float64) @ B, K)
    finally:
        _library.check(lib.mm_best_force(-1, 1))


# The same matrix as stored (N) or stored transposed (T).
AS_OP = {"N": lambda x: x, "T": lambda x: x.t().contiguous().t()}


def with_and_without_clusters(lib, kernel, a, b):
    """kernel's product of a and b with split-K's cluster sums allowed and barred: for each, (C on the host, the
    device memory pooled after it), the pool released before each."""
    results = {}
    for allowed in (1, 0):
        _library.check(lib.mm_split_k_sums_in_launch(allowed))
        matmul_opt.release_memory()
        C = matmul_opt.run(kernel, a, b).cpu().numpy()
        results[allowed] = C, matmul_opt.memory_held()["device_pooled"]
    return results[1], results[0]


def test_split_k_slices_added_within_a_cluster_match_the_workspace_bit_for_bit(rng):
    """Where every tile's K slices (at most 8) run at once as thread block clusters, each cluster adds its slices up
    in shared memory in slice order, as the workspace path's reduction kernel does: the same bits, and no workspace.
    Every pipelined tile of best, forced at 2, 5 and 8 slices, every op combination, a ragged C."""
    torch = pytest.importorskip("torch")
    lib = _library.library()
    best = next(info for info in KERNELS if info.name == "best")
    configs = [config for config, name in enumerate(config_names()) if name.startswith("pipelined ")]
    M, N, K = 257, 130, 1000
    a = torch.from_numpy(rng.uniform(-1, 1, (M, K)).astype(np.float32)).cuda()
    b = torch.from_numpy(rng.uniform(-1, 1, (K, N)).astype(np.float32)).cuda()
    reference = a.cpu().double().numpy() @ b.cpu().double().numpy()
    try:
        for config in configs:
            for splits in (2, 5, 8):
                _library.check(lib.mm_best_force(config, splits))
                for op_a, op_b in itertools.product("NT", repeat=2):
                    (clustered, pool_clustered), (workspace, pool_workspace) = with_and_without_clusters(
                        lib, "best", AS_OP[op_a](a), AS_OP[op_b](b))
                    label = f"{config_names()[config]}, {splits} slices, op {op_a}{op_b}"
                    assert np.array_equal(clustered.view(np.uint32), workspace.view(np.uint32)), label
                    assert pool_clustered == 0 < pool_workspace, label  # the workspace was used only when barred
                    check(best, clustered, reference, K)
    finally:
        _library.check(lib.mm_best_force(-1, 1))
        _library.check(lib.mm_split_k_sums_in_launch(1))


# (shape, whether every op combination of it runs in more than one slice)
SKINNY_CLUSTER_SHAPES = [pytest.param(shape, splits, id=str(shape)) for shape, splits in
                         (((17, 8000, 8000), True), ((1, 1500, 9000), True), ((3001, 1, 5003), False))]


@pytest.mark.parametrize("shape, every_layout_splits", SKINNY_CLUSTER_SHAPES)
def test_skinny_slices_added_within_a_cluster_match_the_workspace_bit_for_bit(rng, shape, every_layout_splits):
    """skinny's K slices, where each column's (or row's) slices run as one cluster, add up in shared memory in slice
    order, as the workspace path's reduction does: the same bits; barred from clusters (mm_split_k_sums_in_launch(0)),
    they go through the workspace. The bulk mainloop on 17 rows of Y against 8000 x 8000 (63 columns of 128, so 2 K
    slices), and the streaming mainloops on one row of C (X along L) and one column (X along K), in few slices. Every
    op combination (a layout that the plan runs in one slice uses neither: 3001x1x5003 op TN); at least one of each
    shape's in clusters."""
    torch = pytest.importorskip("torch")
    lib = _library.library()
    skinny = next(info for info in KERNELS if info.name == "skinny")
    M, N, K = shape
    a = torch.from_numpy(rng.uniform(-1, 1, (M, K)).astype(np.float32)).cuda()
    b = torch.from_numpy(rng.uniform(-1, 1, (K, N)).astype(np.float32)).cuda()
    reference = a.cpu().double().numpy() @ b.cpu().double().numpy()
    in_clusters = []
    try:
        for op_a, op_b in itertools.product("NT", repeat=2):
            (clustered, pool_clustered), (workspace, pool_workspace) = with_and_without_clusters(
                lib, "skinny", AS_OP[op_a](a), AS_OP[op_b](b))
            label = f"op {op_a}{op_b}"
            assert np.array_equal(clustered.view(np.uint32), workspace.view(np.uint32)), label
            if every_layout_splits:
                assert pool_workspace > 0, label  # barred from clusters, the slices went through the workspace
            # Allowed, the slices used no more workspace than barred (none, where they ran as clusters).
            assert pool_clustered <= pool_workspace, label
            in_clusters.append(pool_clustered == 0 < pool_workspace)
            check(skinny, clustered, reference, K)
    finally:
        _library.check(lib.mm_split_k_sums_in_launch(1))
    assert any(in_clusters), f"{shape}: no op combination ran its slices as clusters (and, barred, in the workspace)"


def kernels_launched(torch, product):
    """The names of the events that PyTorch's profiler records on the GPU while product() runs: its kernels."""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as profile:
        product()
        torch.cuda.synchronize()
    return [event.name for event in profile.events() if str(event.device_type).endswith("CUDA")]


def check_sums_in_launch_match_the_reduction(torch, kernel, marker, M, N, K, rng, sums_run_in_launch=True):
    """kernel's product of fresh M x K and K x N operands in every op combination, into a C poisoned with NaN, with
    split-K's sums in the launch allowed and barred (mm_split_k_sums_in_launch): a kernel named with `marker` runs
    both ways; barred, the reduction kernel runs, and allowed (where sums_run_in_launch) it does not; both give the
    same bits, within the kernel's tolerance of a float64 reference."""
    lib = _library.library()
    info = next(info for info in KERNELS if info.name == kernel)
    a = torch.from_numpy(rng.uniform(-1, 1, (M, K)).astype(np.float32)).cuda()
    b = torch.from_numpy(rng.uniform(-1, 1, (K, N)).astype(np.float32)).cuda()
    reference = a.cpu().double().numpy() @ b.cpu().double().numpy()
    try:
        for op_a, op_b in itertools.product("NT", repeat=2):
            label = f"{kernel} {M}x{N}x{K} op {op_a}{op_b}"
            results = {}
            for allowed in (1, 0):
                _library.check(lib.mm_split_k_sums_in_launch(allowed))
                out = torch.full((M, N), float("nan"), device="cuda")
                names = kernels_launched(torch, lambda: matmul_opt.run(kernel, AS_OP[op_a](a), AS_OP[op_b](b), out))
                assert any(marker in name for name in names), (label, names)
                reduced = any("split_k_reduce" in name for name in names)
                if allowed == 0 or sums_run_in_launch:
                    assert reduced == (allowed == 0), (label, allowed, names)
                results[allowed] = out.cpu().numpy()
            assert np.array_equal(results[1].view(np.uint32), results[0].view(np.uint32)), label
            check(info, results[1], reference, K)
    finally:
        _library.check(lib.mm_split_k_sums_in_launch(1))


@pytest.mark.parametrize("kernel", ["longk", "longk_tf32"])
@pytest.mark.parametrize("shape", [(20, 30, 100001), (12, 16, 70000), (5, 7, 40003), (50, 64, 90001)], ids=str)
def test_split_k_slices_added_in_a_cooperative_launch_match_the_reduction_bit_for_bit(rng, kernel, shape):
    """The longk kernels (core/kernel/warp_k_slices.cuh) write their K slices to the workspace and, where every
    block runs at once, add them up at the end of the same launch (a cooperative launch, a grid barrier, then each
    block sums a share of C in the reduction's order): no reduction kernel runs, and C has the reduction's bits.
    Every tile side of each; every op combination, into a C poisoned with NaN."""
    if not available(kernel):
        pytest.skip(f"{kernel} is not available on this GPU")
    check_sums_in_launch_match_the_reduction(pytest.importorskip("torch"), kernel, "warp_k_slices_kernel", *shape, rng)


@pytest.mark.parametrize("width", [8, 16, 24, 32, 64, 128, 256, 0], ids=lambda w: f"width {w or 'of the rule'}")
def test_wgmma_tf32_slices_added_within_a_cluster_match_the_reduction_bit_for_bit(rng, width):
    """wgmma_tf32's K slices, where every tile's slices (at most 8) run at once as one thread block cluster, are
    added up by the cluster in shared memory in slice order (core/epilogue/warpgroup_cluster_sum.cuh), as split-K's
    reduction adds them: no reduction kernel runs, and C has the reduction's bits. Every tile width, forced, on a
    ragged C of at most 5 tiles (so few clusters that they fit on any Hopper GPU) over a K that the widths cut into 3
    to 7 slices (8 would make the reduction add them in two runs, which the clusters do not), and the rule's width on
    a panel; every op combination (the direct path and both transposed ones)."""
    if not available("wgmma_tf32"):
        pytest.skip("wgmma_tf32 is not available on this GPU")
    torch = pytest.importorskip("torch")
    lib = _library.library()
    shape = (40, 20, 4096 if width == 64 else 1792) if width else (128, 4096, 4096)
    try:
        _library.check(lib.mm_wgmma_tf32_force(width, 1, 1))
        # Whether the panel's 32 clusters of 4 all fit at once depends on the GPU.
        check_sums_in_launch_match_the_reduction(torch, "wgmma_tf32", "wgmma_tf32_kernel", *shape, rng,
                                                 sums_run_in_launch=width != 0)
    finally:
        _library.check(lib.mm_wgmma_tf32_force(0, 1, 1))


def test_streamk_schedule_cases_are_correct(rng):
    """streamk's schedule depends on the tile count against the resident blocks P (SMs x blocks per SM):
    whole waves only, a remainder of at least half a wave (shared out alone), a small remainder (shared
    out with one whole wave), fewer tiles than blocks; K of one tile (nothing split) and of ten (split
    tiles, partials folded). The tail3 configuration cuts the same remainders into three K pieces per tile
    (one when K has one tile). Tile counts are built from this GPU's SM count so that every case is hit."""
    if not available("streamk"):
        pytest.skip("streamk is not available on this machine")
    lib = _library.library()
    best = next(info for info in KERNELS if info.name == "best")
    sms = matmul_opt.device_info().sm_count
    configs = {name: config for config, name in enumerate(config_names()) if name.startswith("streamk ")}
    assert set(configs) == {"streamk 128x256x32", "streamk 128x128x16", "streamk 128x256x32 tail3"}
    try:
        for name, config in configs.items():
            bm, bn = (128, 256) if "128x256" in name else (128, 128)
            blocks = sms * (1 if bn == 256 else 2)
            for tiles in (blocks, blocks + blocks // 2 + 1, blocks + 3, 2 * blocks - 1, blocks // 2):
                for K in (20, 300):  # one K tile; ten (the last one ragged)
                    M, N = bm * tiles - 3, bn - 5
                    A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
                    B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
                    _library.check(lib.mm_best_force(config, 1))
                    C = matmul_opt.run("best", A, B)
                    check(best, C, A.astype(np.float64) @ B, K)
    finally:
        _library.check(lib.mm_best_force(-1, 1))


def test_tma_device_path_takes_aligned_and_unaligned_operands():
    """The device entry point hands the bulk-copy engine what it can describe (16-byte aligned bases and
    leading dimensions) and the pipelined kernel the rest; both must give the product."""
    torch = pytest.importorskip("torch")
    if not available("tma"):
        pytest.skip("tma is not available on this machine")
    lib = _library.library()
    tma = next(info for info in KERNELS if info.name == "tma")
    M, N, K = 130, 72, 92
    for offset in (0, 1):  # elements: 0 keeps every base 16-byte aligned, 1 breaks it
        a = torch.rand(M * K + offset, device="cuda") * 2 - 1
        b = torch.rand(K * N + offset, device="cuda") * 2 - 1
        c = torch.full((M * N + offset,), float("nan"), device="cuda")
        A, B = a[offset:].view(M, K), b[offset:].view(K, N)
        _library.check(lib.mm_matmul_device(b"tma", M, N, K, A.data_ptr(), K, B.data_ptr(), N, c[offset:].data_ptr(), N))
        torch.cuda.synchronize()
        reference = A.cpu().numpy().astype(np.float64) @ B.cpu().numpy().astype(np.float64)
        check(tma, c[offset:].view(M, N).cpu().numpy(), reference, K)
