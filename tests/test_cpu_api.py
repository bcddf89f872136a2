"""CPU tier: the library builds and loads, the registry is coherent, and every class of bad input is refused
with a clear Python exception before the GPU is touched (so these pass on machines without a GPU)."""
import ctypes
import os
import subprocess
import sys

import numpy as np
import pytest

import matmul_opt
from matmul_opt import _library
from matmul_opt.accuracy import error_scale, relative_error



def good_pair(rng, M=4, K=3, N=5):
    return (rng.uniform(-1, 1, (M, K)).astype(np.float32), rng.uniform(-1, 1, (K, N)).astype(np.float32))


def test_library_exports_an_entry_point_pair_per_registered_kernel():
    lib = _library.library()
    for info in matmul_opt.kernels():
        assert hasattr(lib, f"mm_{info.name}_host"), info.name
        assert hasattr(lib, f"mm_{info.name}_device"), info.name


def test_registry_lists_the_seed_rungs_and_baselines_once_each():
    infos = matmul_opt.kernels()
    names = [info.name for info in infos]
    assert names[:3] == ["naive", "optimized", "advanced"]
    assert {"cublas", "cublas_tf32"} <= set(names)
    assert len(names) == len(set(names))
    for info in infos:
        assert info.description.strip(), info.name
        assert info.arithmetic in ("fp32", "tf32", "fp32_tensor")
    assert {i.name: i.arithmetic for i in infos}["cublas_tf32"] == "tf32"


def test_the_registry_says_which_kernels_take_every_op_combination_as_stored():
    """best (every configuration it dispatches to: the pipelined, splitk, tma and streamk rungs) and cuBLAS read
    op = T operands as stored; the rungs below pipelined take row-major operands only and get the rest rearranged."""
    native = {info.name: info.native_ops for info in matmul_opt.kernels()}
    every = ("NN", "NT", "TN", "TT")
    for name in ("best", "pipelined", "splitk", "tma", "streamk", "cublas", "cublas_tf32"):
        assert native[name] == every, name
    for name in ("naive", "optimized", "advanced", "warptile"):
        assert native[name] == ("NN",), name
    lib = _library.library()
    combinations = ctypes.c_uint()
    for index, info in enumerate(matmul_opt.kernels()):
        _library.check(lib.mm_kernel_native_ops(index, ctypes.byref(combinations)))
        assert combinations.value == (0xF if info.native_ops == every else 0x1), info.name
    assert lib.mm_kernel_native_ops(lib.mm_kernel_count(), ctypes.byref(combinations)) == 2  # MM_ERR_UNKNOWN_KERNEL
    assert b"out of range" in lib.mm_last_error()
    assert lib.mm_kernel_native_ops(0, None) == 1  # MM_ERR_INVALID_ARGUMENT
    assert b"null pointer" in lib.mm_last_error()


def test_unknown_kernel_lists_the_valid_names(rng):
    A, B = good_pair(rng)
    with pytest.raises(ValueError) as excinfo:
        matmul_opt.run("fastest", A, B)
    for name in matmul_opt.kernel_names():
        assert name in str(excinfo.value)


def test_kernel_name_must_be_a_string(rng):
    with pytest.raises(TypeError, match="kernel name"):
        matmul_opt.run(3, *good_pair(rng))


@pytest.mark.parametrize("shape", [(6,), (2, 3, 4), ()])
def test_inputs_must_be_two_dimensional(rng, shape):
    A, B = good_pair(rng)
    bad = rng.uniform(size=shape).astype(np.float32)
    with pytest.raises(ValueError, match="2-D"):
        matmul_opt.run("naive", bad, B)
    with pytest.raises(ValueError, match="2-D"):
        matmul_opt.run("naive", A, bad)


def test_inner_dimensions_must_agree(rng):
    A = rng.uniform(size=(4, 3)).astype(np.float32)
    B = rng.uniform(size=(5, 2)).astype(np.float32)
    with pytest.raises(ValueError, match=r"inner dimensions differ: A is 4x3 and B is 5x2"):
        matmul_opt.run("naive", A, B)


@pytest.mark.parametrize("dtype", [np.float64, np.float16, np.int32, np.int64, np.uint8, np.bool_])
def test_other_numeric_dtypes_say_how_to_convert(rng, dtype):
    A, B = good_pair(rng)
    with pytest.raises(TypeError, match=r"astype\(np.float32\)"):
        matmul_opt.run("optimized", A.astype(dtype), B)
    with pytest.raises(TypeError, match=r"B has dtype"):
        matmul_opt.run("optimized", A, B.astype(dtype))


@pytest.mark.parametrize(
    "bad",
    [
        np.array([[object(), object()], [object(), object()]], dtype=object),
        np.array([["a", "b"], ["c", "d"]]),
        np.array([[b"a", b"b"], [b"c", b"d"]]),
        np.zeros((2, 2), dtype="datetime64[s]"),
        np.zeros((2, 2), dtype=np.complex64),
    ],
    ids=["object", "str", "bytes", "datetime", "complex"],
)
def test_non_numeric_arrays_are_refused(bad):
    ok = np.ones((2, 2), dtype=np.float32)
    with pytest.raises(TypeError, match="dtype"):
        matmul_opt.run("naive", bad, ok)


def test_non_arrays_are_refused_with_a_conversion_hint():
    with pytest.raises(TypeError, match=r"np.asarray"):
        matmul_opt.run("naive", [[1.0, 2.0]], np.ones((2, 1), dtype=np.float32))


@pytest.mark.parametrize("M,K,N", [(0, 3, 4), (3, 0, 4), (3, 4, 0), (0, 0, 0)])
def test_empty_dimensions_give_numpys_shape_and_zeros(M, K, N):
    A = np.ones((M, K), dtype=np.float32)
    B = np.ones((K, N), dtype=np.float32)
    C = matmul_opt.run("advanced", A, B)
    expected = A @ B
    assert C.shape == expected.shape and C.dtype == np.float32
    assert np.array_equal(C, expected)


def test_benchmark_rejects_bad_sizes_before_the_gpu():
    with pytest.raises(ValueError, match="M must be an integer"):
        matmul_opt.benchmark("naive", 0, 4, 4)
    with pytest.raises(ValueError, match="K must be an integer"):
        matmul_opt.benchmark("naive", 4, 4, 2**31)
    with pytest.raises(ValueError, match="unknown kernel"):
        matmul_opt.benchmark("nope", 4, 4, 4)


class TestCBoundary:
    """The C API validates on its own too: callers other than Python get a status and a message."""

    def call(self, kernel=b"naive", M=2, N=2, K=2, lda=2, ldb=2, ldc=2, null=None):
        lib = _library.library()
        buffers = {name: (ctypes.c_float * 16)() for name in "ABC"}
        pointers = {name: (None if name == null else ctypes.addressof(buf)) for name, buf in buffers.items()}
        status = lib.mm_matmul_host(kernel, M, N, K, pointers["A"], lda, pointers["B"], ldb, pointers["C"], ldc)
        return status, lib.mm_last_error().decode()

    def test_leading_dimension_smaller_than_the_row(self):
        status, message = self.call(K=3, lda=2)
        assert status == 1 and "lda = 2" in message and "row length 3" in message

    def test_negative_dimension(self):
        status, message = self.call(M=-1)
        assert status == 1 and "M = -1" in message

    def test_dimension_beyond_int32(self):
        status, message = self.call(N=2**31, ldb=2**31, ldc=2**31)
        assert status == 1 and "N = 2147483648" in message

    def test_null_pointer(self):
        status, message = self.call(null="B")
        assert status == 1 and "B is a null pointer" in message

    def test_unknown_kernel_by_name(self):
        status, message = self.call(kernel=b"nope")
        assert status == 2 and "valid kernels: naive" in message

    def test_benchmark_checks_its_own_arguments(self):
        lib = _library.library()
        ms = ctypes.c_double()
        assert lib.mm_benchmark(b"naive", 0, 4, 4, 1, 1, ctypes.byref(ms)) == 1
        assert "dimensions must be >= 1, got 0x4x4" in lib.mm_last_error().decode()
        assert lib.mm_benchmark(b"naive", 4, 4, 4, 1, 0, ctypes.byref(ms)) == 1
        assert "repetitions >= 1" in lib.mm_last_error().decode()
        assert lib.mm_benchmark(b"naive", 4, 4, 4, 1, 1, None) == 1
        assert "median_ms is a null pointer" in lib.mm_last_error().decode()

    def gemm(self, op_a=0, op_b=0, M=3, N=2, K=2, lda=2, ldb=2, ldc=2, entry="mm_gemm_host"):
        lib = _library.library()
        buffers = {name: (ctypes.c_float * 16)() for name in "ABC"}
        arguments = [b"naive", op_a, op_b, M, N, K, 1.0, ctypes.addressof(buffers["A"]), lda,
                     ctypes.addressof(buffers["B"]), ldb, 0.0, ctypes.addressof(buffers["C"]), ldc]
        if entry == "mm_gemm_host_problem":
            problem = _library.GemmProblemStruct()
            _library.pack_problem(problem, 0, *arguments[1:])
            status = lib.mm_gemm_host_problem(arguments[0], problem)
        elif entry == "mm_gemm_async_tracked":
            name = ctypes.create_string_buffer(arguments[0])
            call = _library.TrackedGemmStruct()
            _library.pack_tracked(call, 0, ctypes.addressof(name), *arguments[1:], 0)
            status = lib.mm_gemm_async_tracked(ctypes.addressof(call))
        else:
            status = getattr(lib, entry)(*arguments, *([None] if entry in ("mm_gemm_async", "mm_gemm_check") else []))
        return status, lib.mm_last_error().decode()

    @pytest.mark.parametrize("entry", ["mm_gemm_host", "mm_gemm_host_problem", "mm_gemm_async", "mm_gemm_async_tracked",
                                       "mm_gemm_check"])
    def test_op_flags_are_checked(self, entry):
        status, message = self.gemm(op_a=7, entry=entry)
        assert status == 1 and "op_a = 7 is neither MM_OP_N (0) nor MM_OP_T (1)" in message
        status, message = self.gemm(op_b=-1, entry=entry)
        assert status == 1 and "op_b = -1" in message

    @pytest.mark.parametrize("entry", ["mm_gemm_host", "mm_gemm_host_problem", "mm_gemm_async", "mm_gemm_async_tracked",
                                       "mm_gemm_check"])
    def test_leading_dimensions_are_those_of_the_stored_matrices(self, entry):
        # op(A) = T: A is stored K x M = 2 x 3, so lda must reach 3.
        status, message = self.gemm(op_a=1, lda=2, entry=entry)
        assert status == 1 and "lda = 2 is smaller than the row length 3" in message
        # op(B) = T: B is stored N x K = 2 x 4, so ldb must reach 4.
        status, message = self.gemm(op_b=1, K=4, lda=4, ldb=2, entry=entry)
        assert status == 1 and "ldb = 2 is smaller than the row length 4" in message

    def test_the_struct_entries_refuse_null_structs(self):
        lib = _library.library()
        assert lib.mm_gemm_async_tracked(None) == 1
        assert "call is a null pointer" in lib.mm_last_error().decode()
        assert lib.mm_gemm_host_problem(b"naive", None) == 1
        assert "problem is a null pointer" in lib.mm_last_error().decode()

    def test_the_tracked_entry_refuses_an_unknown_kernel_name(self):
        lib = _library.library()
        name = ctypes.create_string_buffer(b"nope")
        call = _library.TrackedGemmStruct()
        _library.pack_tracked(call, 0, ctypes.addressof(name), 0, 0, 2, 2, 2, 1.0, 16, 2, 16, 2, 0.0, 16, 2, 0)
        assert lib.mm_gemm_async_tracked(ctypes.addressof(call)) == 2
        assert "unknown kernel 'nope'" in lib.mm_last_error().decode()

    _PROBLEM = (1, 0, 3, 5, 7, 2.5, 0x1000, 11, 0x2000, 13, -0.5, 0x3000, 17)  # distinct, exact in fp32

    def test_pack_problem_fills_every_field_of_the_struct(self):
        problem = _library.GemmProblemStruct()
        _library.pack_problem(problem, 0, *self._PROBLEM)
        assert tuple(getattr(problem, name) for name, _ in problem._fields_) == self._PROBLEM

    def test_pack_tracked_fills_every_field_but_the_report_and_read_tracking_reads_that(self):
        call = _library.TrackedGemmStruct()
        call.tracking.ticket, call.tracking.finished_through = 23, 19
        _library.pack_tracked(call, 0, 0x4000, *self._PROBLEM, 0x5000)
        problem = tuple(getattr(call.problem, name) for name, _ in call.problem._fields_)
        assert (call.kernel, problem, call.stream) == (0x4000, self._PROBLEM, 0x5000)
        assert _library.read_tracking(call) == (23, 19)

    def test_kernel_name_addresses_point_at_the_names(self):
        addresses = _library.kernel_name_addresses()
        assert list(addresses) == matmul_opt.kernel_names()
        assert all(ctypes.string_at(address) == name.encode() for name, address in addresses.items())

    def test_unknown_kernel_index(self):
        name = ctypes.c_char_p()
        lib = _library.library()
        assert lib.mm_kernel_name(lib.mm_kernel_count(), ctypes.byref(name)) == 2
        assert "out of range" in lib.mm_last_error().decode()


def python_output(code, **env):
    """Standard output of `code` run in a fresh interpreter with `env` added; it must exit 0."""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, **env))
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_without_a_gpu_import_works_and_calls_raise_no_device_error():
    # Hiding every device gives the no-GPU path on any machine, the H200 included.
    code = (
        "import numpy as np, matmul_opt\n"
        "A = np.ones((3, 3), np.float32)\n"
        "B = np.ones((600, 600), np.float32)  # a result large enough to come in pinned memory\n"
        "for call in (lambda: matmul_opt.run('naive', A, A), matmul_opt.device_info,\n"
        "             lambda: matmul_opt.benchmark('advanced', 8, 8, 8), lambda: matmul_opt.run('best', B, B),\n"
        "             lambda: matmul_opt.empty_pinned((4, 4))):\n"
        "    try:\n"
        "        call()\n"
        "    except matmul_opt.NoDeviceError as exc:\n"
        "        print('NoDeviceError:', exc)\n"
    )
    lines = python_output(code, CUDA_VISIBLE_DEVICES="").strip().splitlines()
    assert len(lines) == 5 and all(line.startswith("NoDeviceError: no usable CUDA device") for line in lines)


@pytest.mark.parametrize("shape, error", [((-1, 3), ValueError), ((2, 2.5), ValueError), ("ab", ValueError)])
def test_empty_pinned_checks_its_shape_before_the_gpu(shape, error):
    with pytest.raises(error, match="shape must be"):
        matmul_opt.empty_pinned(shape)


def test_empty_pinned_refuses_object_dtypes_before_the_gpu():
    with pytest.raises(TypeError, match="Python objects"):
        matmul_opt.empty_pinned((2, 2), object)


def test_main_job_without_a_gpu_says_why_and_fails():
    result = subprocess.run([sys.executable, "-m", "matmul_opt"], capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, CUDA_VISIBLE_DEVICES=""))
    assert result.returncode != 0
    assert "cannot run without a usable GPU" in result.stderr


def test_missing_library_import_works_and_the_error_says_how_to_build():
    code = (
        "import numpy as np, matmul_opt\n"
        "try:\n"
        "    matmul_opt.run('naive', np.ones((2, 2), np.float32), np.ones((2, 2), np.float32))\n"
        "except matmul_opt.LibraryNotFoundError as exc:\n"
        "    print(exc)\n"
    )
    output = python_output(code, MATMUL_OPT_LIBRARY="/nonexistent/libmatmul.so")
    assert "/nonexistent/libmatmul.so" in output and "invoke build" in output


def test_tolerance_grows_with_k_and_is_loose_for_tf32():
    assert matmul_opt.tolerance("fp32", 1) < matmul_opt.tolerance("fp32", 4096) < 1e-4
    assert matmul_opt.tolerance("tf32", 1024) > matmul_opt.tolerance("fp32", 1024)


def test_fp32_tensor_kernels_are_held_to_the_fp32_tolerance_and_unknown_arithmetic_is_refused():
    for K in (1, 256, 65536):
        assert matmul_opt.tolerance("fp32_tensor", K) == matmul_opt.tolerance("fp32", K)
    with pytest.raises(ValueError, match="unknown arithmetic 'fp16'"):
        matmul_opt.tolerance("fp16", 64)


def test_report_accuracy_table_gives_each_error_and_its_ratio_to_cublas():
    from matmul_opt.report import format_accuracy

    lines = format_accuracy({"cublas": {256: 2e-7, 4096: 4e-7}, "wgmma_3xtf32": {256: 1e-7, 4096: 6e-7}})
    assert lines[0].split() == ["kernel", "K=256", "K=4096"]
    assert lines[2].split() == ["wgmma_3xtf32", "1.00e-07", "(0.50x)", "6.00e-07", "(1.50x)"]
    assert format_accuracy({"best": {256: 3e-7}})[1].split() == ["best", "3.00e-07"]  # no cublas row, no ratio


def test_report_accuracy_tables_cover_both_input_kinds_from_one_term_up(monkeypatch):
    """accuracy_over_k on both kinds of input the contracts name, at every K of the default list, with products
    standing in for the kernels: an fp32 sum is within the fp32 tolerance on both kinds; one whose inputs are first
    rounded to 10 mantissa bits (as TF32 does) is far from it on both."""
    from matmul_opt import report
    from matmul_opt.accuracy import INPUT_KINDS, tolerance

    def rounded(x):
        bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
        return ((bits + np.uint32(1 << 12)) & np.uint32(0xFFFFE000)).view(np.float32)

    products = {"fp32": lambda A, B: A @ B, "ten_bits": lambda A, B: rounded(A) @ rounded(B)}
    monkeypatch.setattr(report, "run", lambda name, A, B: products[name](A, B))
    errors = report.accuracy_over_k(list(products), report.ACCURACY_KS, np.random.default_rng(7))
    assert list(errors) == list(INPUT_KINDS) and report.ACCURACY_KS[0] == 1 and report.ACCURACY_KS[-1] == 65536
    for kind, by_kernel in errors.items():
        assert set(by_kernel["fp32"]) == set(report.ACCURACY_KS)
        for K, error in by_kernel["fp32"].items():
            assert error <= tolerance("fp32", K), (kind, K, error)
            assert by_kernel["ten_bits"][K] > 10 * max(error, 1e-9), (kind, K)
    lines = report.format_accuracy(errors["uniform [-1, 1]"], baseline="fp32")
    assert lines[0].split()[1:] == [f"K={K}" for K in report.ACCURACY_KS]


def test_report_shape_parser():
    from matmul_opt.report import parse_shape

    assert parse_shape("1024") == (1024, 1024, 1024)
    assert parse_shape("4095x4097x4093") == (4095, 4097, 4093)
    with pytest.raises(Exception):
        parse_shape("12x13")


def test_dimensions_beyond_the_c_integer_type_are_refused_before_the_gpu():
    small = np.ones((4, 4), dtype=np.float32)
    huge = np.lib.stride_tricks.as_strided(small, shape=(2**31, 4), strides=(0, 4))  # no memory behind it
    with pytest.raises(ValueError, match=r"A.shape\[0\] = 2147483648 exceeds"):
        matmul_opt.run("naive", huge, small)


def test_best_tuning_hooks_name_every_configuration_and_refuse_bad_ones():
    lib = _library.library()
    count = lib.mm_best_config_count()
    names = []
    for config in range(count):
        name = ctypes.c_char_p()
        _library.check(lib.mm_best_config_name(config, ctypes.byref(name)))
        names.append(name.value.decode())
    assert len(set(names)) == count
    for family in ("pipelined ", "tma ", "streamk ", "skinny", "shortk"):
        assert any(n.startswith(family) for n in names), family
    for bad in (-1, count):
        assert lib.mm_best_config_name(bad, ctypes.byref(ctypes.c_char_p())) != 0
        assert b"out of range" in lib.mm_last_error()
    for config, splits in ((count, 1), (0, -1), (-2, 1)):
        assert lib.mm_best_force(config, splits) != 0
        assert f"config < {count}".encode() in lib.mm_last_error()
    _library.check(lib.mm_best_force(-1, 1))  # back to the heuristic
    for bad in (-1, 2):
        assert lib.mm_best_edges_beside(bad) != 0
        assert b"pass 1 (beside the bulk) or 0 (after it)" in lib.mm_last_error()
    _library.check(lib.mm_best_edges_beside(0))
    _library.check(lib.mm_best_edges_beside(1))  # the default again
    for bad in (-1, 2):
        assert lib.mm_split_k_sums_in_launch(bad) != 0
        assert b"pass 1 (allowed) or 0 (never)" in lib.mm_last_error()
    _library.check(lib.mm_split_k_sums_in_launch(0))
    _library.check(lib.mm_split_k_sums_in_launch(1))  # the default again
    for bad in (-1, 2):
        assert lib.mm_fp32_accurate_force_ffma(bad) != 0
        assert b"pass 1 (off the tensor cores) or 0 (the table's choice)" in lib.mm_last_error()
    _library.check(lib.mm_fp32_accurate_force_ffma(1))
    _library.check(lib.mm_fp32_accurate_force_ffma(0))  # the default again


def test_wgmma_tf32_tuning_hook_takes_its_widths_and_refuses_others():
    lib = _library.library()
    for args in ((7, 1, 1), (48, 1, 1), (512, 1, 1), (-8, 1, 1), (8, 2, 1), (0, -1, 1), (0, 1, 2), (0, 1, -1)):
        assert lib.mm_wgmma_tf32_force(*args) != 0
        assert b"8, 16, 24, 32, 64, 128, 256" in lib.mm_last_error()
    for width in (8, 16, 24, 32, 64, 128, 256):
        _library.check(lib.mm_wgmma_tf32_force(width, 0, 0))
    _library.check(lib.mm_wgmma_tf32_force(0, 1, 1))  # back to the rule


def test_relative_error_measures_against_the_products_when_the_sum_cancels():
    A = np.array([[1.0, -1.0, 1e-3]], dtype=np.float32)
    B = np.ones((3, 1), dtype=np.float32)
    reference = A.astype(np.float64) @ B.astype(np.float64)  # 1e-3, from products of size 1
    rounded = (reference + 1e-7).astype(np.float32)  # off by about one fp32 rounding of the products
    wrong = (reference + 1.0).astype(np.float32)  # one product dropped
    bound = matmul_opt.tolerance("fp32", 3)
    assert relative_error(rounded, reference) > bound  # against the cancelled sum itself: a false alarm
    assert relative_error(rounded, reference, error_scale(A, B)) <= bound
    assert relative_error(wrong, reference, error_scale(A, B)) > 100 * bound
    assert np.isnan(relative_error(np.full((1, 1), np.nan, dtype=np.float32), reference, error_scale(A, B)))


class _JaxLikePrecision:
    """What jax.lax.Precision members look like to matmul(): an object whose .name is the precision's."""

    def __init__(self, name):
        self.name = name


@pytest.mark.parametrize("precision, kernel", [("highest", "best_fp32_accurate"), ("HIGH", "best_tf32"),
                                               ("medium", "best_tf32"), (_JaxLikePrecision("DEFAULT"), "best_tf32"),
                                               (_JaxLikePrecision("HIGHEST"), "best_fp32_accurate")])
def test_precision_names_map_to_the_registered_dispatcher_of_their_class(precision, kernel):
    assert matmul_opt.api.precision_kernel(precision) == kernel
    arithmetic = {info.name: info.arithmetic for info in matmul_opt.kernels()}
    assert arithmetic[kernel] == ("fp32_tensor" if kernel == "best_fp32_accurate" else "tf32")


@pytest.mark.parametrize("precision", ["fastest", "", 32, object()])
def test_an_unknown_precision_is_refused_with_the_names(precision):
    with pytest.raises(ValueError, match="unknown precision.*'highest'.*kernel="):
        matmul_opt.api.precision_kernel(precision)


def test_matmul_refuses_a_precision_and_a_kernel_together_before_the_gpu_is_touched():
    A, B = good_pair(np.random.default_rng(5))
    with pytest.raises(ValueError, match="precision=.*or kernel=.*not both"):
        matmul_opt.matmul(A, B, precision="high", kernel="best")
    with pytest.raises(ValueError, match="unknown precision 'bf16'"):
        matmul_opt.matmul(A, B, precision="bf16")
