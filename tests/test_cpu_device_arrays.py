"""CPU tier: GPU-array operands are validated before the GPU is touched. Stand-in objects export the interfaces:
accepted ones get as far as the device (NoDeviceError, checked with every device hidden), malformed ones raise
TypeError or ValueError. No real GPU array is needed."""
import ctypes
import os
import subprocess
import sys
import types

import numpy as np
import pytest

import matmul_opt
from matmul_opt import _layout, array_adapters, device_arrays, device_matrix, dlpack, streams


class FakeCAI:
    """An object with a __cuda_array_interface__ that points at nothing (never dereferenced here)."""

    def __init__(self, shape=(4, 3), typestr="<f4", version=3, strides=None, readonly=False, stream=None, **extra):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "version": version, "strides": strides,
                                         "data": (0x7F0000000000, readonly), "stream": stream, **extra}


class FakeDLPack:
    def __init__(self, device_type):
        self.device_type = device_type

    def __dlpack_device__(self):
        return self.device_type, 0

    def __dlpack__(self, stream=None):
        raise AssertionError("a non-CUDA operand must be refused before it is exported")


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(dlpack._DLManagedTensor))
_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype, _capsule_new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class FakeCudaDLPack:
    """A DLPack exporter of a CUDA float32 tensor that points at nothing; `returned` records each deleter call,
    `asked` the stream of each export."""

    def __init__(self, name, shape, returned, asked=None):
        self.asked = [] if asked is None else asked
        self.shape = (ctypes.c_int64 * len(shape))(*shape)
        self.managed = dlpack._DLManagedTensor()
        tensor = self.managed.dl_tensor
        tensor.data, tensor.ndim, tensor.shape = 0x7F0000000000, len(shape), self.shape
        tensor.device.device_type, tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes = 2, 2, 32, 1
        self.deleter = _DELETER(lambda _: returned.append(name))
        self.managed.deleter = self.deleter

    def __dlpack_device__(self):
        return 2, 0

    def __dlpack__(self, stream=None):
        self.asked.append(stream)
        return _capsule_new(ctypes.addressof(self.managed), b"dltensor", None)


@pytest.mark.parametrize("shapes, match, exported", [
    (((4, 3), (4, 5), (4, 5)), "inner dimensions differ", ["A", "B", "out"]),
    (((4, 3), (3, 5), (5, 4)), "out has shape", ["A", "B", "out"]),
    (((4, 3), (3, 5, 1), (4, 5)), "B must be 2-D", ["A", "B"]),  # out is exported after B, so never
    (((4, 3), (3, 2**31), (4, 5)), "exceeds the library's limit", ["A", "B"]),
], ids=["inner", "out-shape", "3-D", "too-large"])
def test_a_refused_call_gives_every_dlpack_export_back(shapes, match, exported):
    returned = []
    A, B, out = (FakeCudaDLPack(name, shape, returned) for name, shape in zip(("A", "B", "out"), shapes))
    with pytest.raises(ValueError, match=match):
        matmul_opt.run("naive", A, B, out=out)
    assert sorted(returned) == exported


def test_dlpack_exports_are_asked_for_the_stream_of_the_work():
    """With no stream= and no producer stream, DLPack operands are exported for the legacy default stream, which
    every producer takes (PyTorch refuses the per-thread one); with stream=, for that stream."""
    for stream, expected in ((None, 1), (12345, 12345)):
        returned, asked = [], []
        A, B, out = (FakeCudaDLPack(name, shape, returned, asked)
                     for name, shape in zip(("A", "B", "out"), ((4, 3), (4, 5), (4, 5))))
        with pytest.raises(ValueError, match="inner dimensions differ"):
            matmul_opt.run("naive", A, B, out=out, stream=stream)
        assert asked == [expected] * 3 and sorted(returned) == ["A", "B", "out"]


def test_numpy_arrays_are_host_operands_and_interfaces_are_device_operands():
    assert not device_matrix.is_device_array(np.ones((2, 2), np.float32))  # NumPy has __dlpack__ too
    assert device_matrix.is_device_array(FakeCAI())
    assert device_matrix.is_device_array(FakeDLPack(2))
    assert not device_matrix.is_device_array([[1.0]])


@pytest.mark.parametrize("iface, error, match", [
    (dict(version=1), ValueError, "versions 2 and 3"),
    (dict(shape=(2, 3, 4)), ValueError, "2-D"),
    (dict(typestr="<f8"), TypeError, "expected float32"),
    (dict(typestr="<i4"), TypeError, "expected float32"),
    (dict(mask=(0, False)), ValueError, "mask"),
    (dict(strides=(12, 2)), ValueError, "whole float32 elements"),
    (dict(stream=0), ValueError, "stream 0"),
], ids=["version-1", "3-D", "float64", "int32", "masked", "odd-strides", "stream-0"])
def test_malformed_cuda_array_interfaces_are_refused(iface, error, match):
    with pytest.raises(error, match=match):
        matmul_opt.run("naive", FakeCAI(**iface), FakeCAI(shape=(3, 5)))


@pytest.mark.parametrize("device_type, name", [(1, "CPU"), (3, "CUDA host"), (10, "ROCm")])
def test_non_cuda_dlpack_devices_are_refused(device_type, name):
    with pytest.raises(ValueError, match=f"DLPack {name}.* device, not a CUDA GPU"):
        matmul_opt.run("naive", FakeDLPack(device_type), FakeCAI(shape=(3, 5)))


def test_mixed_host_and_gpu_operands_are_refused():
    with pytest.raises(ValueError, match="mixed host and GPU operands"):
        matmul_opt.run("naive", FakeCAI(), np.ones((3, 5), np.float32))
    with pytest.raises(ValueError, match="mixed host and GPU operands"):
        matmul_opt.run("naive", np.ones((4, 3), np.float32), np.ones((3, 5), np.float32), out=FakeCAI(shape=(4, 5)))


def test_out_and_scalars_are_checked():
    A, B = FakeCAI(shape=(4, 3)), FakeCAI(shape=(3, 5))
    with pytest.raises(ValueError, match="beta = 2.0 scales the C that out= holds"):
        matmul_opt.run("naive", A, B, beta=2)
    with pytest.raises(TypeError, match="alpha must be a real number"):
        matmul_opt.run("naive", A, B, alpha="2")
    with pytest.raises(ValueError, match=r"out has shape \(5, 4\), expected \(4, 5\)"):
        matmul_opt.run("naive", A, B, out=FakeCAI(shape=(5, 4)))
    with pytest.raises(ValueError, match="out is read-only"):
        matmul_opt.run("naive", A, B, out=FakeCAI(shape=(4, 5), readonly=True))
    with pytest.raises(ValueError, match="inner dimensions differ: A is 4x3 and B is 4x5"):
        matmul_opt.run("naive", A, FakeCAI(shape=(4, 5)))
    with pytest.raises(TypeError, match="stream must be a stream handle"):
        matmul_opt.run("naive", A, B, stream="fast")
    with pytest.raises(ValueError, match="stream= applies to GPU arrays"):
        matmul_opt.run("naive", np.ones((4, 3), np.float32), np.ones((3, 5), np.float32), stream=0)


def test_numpy_out_must_fit():
    A, B = np.ones((4, 3), np.float32), np.ones((3, 5), np.float32)
    with pytest.raises(ValueError, match="out has shape"):
        matmul_opt.run("naive", A, B, out=np.empty((5, 4), np.float32))
    frozen = np.empty((4, 5), np.float32)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="out is read-only"):
        matmul_opt.run("naive", A, B, out=frozen)
    with pytest.raises(TypeError, match="out has dtype float64"):
        matmul_opt.run("naive", A, B, out=np.empty((4, 5)))


@pytest.mark.parametrize("shape, strides, expected", [
    ((4, 3), (3, 1), (0, 3)),      # row-major
    ((4, 3), (8, 1), (0, 8)),      # row slice of a wider matrix
    ((4, 3), (1, 4), (1, 4)),      # column-major: the transpose of a row-major 3 x 4
    ((4, 3), (1, 16), (1, 16)),
    ((1, 3), (0, 1), (0, 3)),      # one row: its stride does not matter
    ((4, 1), (1, 0), (0, 1)),      # one column
    ((4, 3), (6, 2), None),        # neither rows nor columns contiguous
    ((4, 3), (0, 1), None),        # broadcast rows
])
def test_layouts_map_to_op_and_leading_dimension(shape, strides, expected):
    assert _layout.layout(shape, strides) == expected


def test_stream_handles():
    class CupyLike:
        ptr = 1234

    class TorchLike:
        cuda_stream = 0

    assert streams.stream_handle(5678) == 5678
    assert streams.stream_handle(CupyLike()) == 1234
    assert streams.stream_handle(TorchLike()) == streams.LEGACY_STREAM  # 0: the legacy default stream
    with pytest.raises(TypeError):
        streams.stream_handle(-1)


def _run_without_devices(code: str) -> str:
    """stdout of `code` run by a fresh interpreter with every device hidden (it imports this module's stand-ins)."""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            cwd=os.path.dirname(__file__),
                            env=dict(os.environ, CUDA_VISIBLE_DEVICES="",
                                     PYTHONPATH=os.pathsep.join([os.path.dirname(os.path.dirname(__file__)),
                                                                 os.environ.get("PYTHONPATH", "")])))
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_accepted_operands_reach_the_device():
    """With every device hidden, a well-formed CAI operand gets as far as asking the library where it lives."""
    stdout = _run_without_devices(
        "import matmul_opt\n"
        "from test_cpu_device_arrays import FakeCAI\n"
        "try:\n"
        "    matmul_opt.run('naive', FakeCAI(shape=(4, 3)), FakeCAI(shape=(3, 5), version=2))\n"
        "except matmul_opt.NoDeviceError as exc:\n"
        "    print('NoDeviceError:', exc)\n"
    )
    assert stdout.startswith("NoDeviceError: no usable CUDA device"), stdout


def install_fake_torch():
    """Puts a stand-in `torch` module in sys.modules, with a Tensor of the attributes matmul_opt reads, and returns
    it (for the interpreters _run_without_devices starts: never in the test process)."""
    torch = types.ModuleType("torch")
    torch.float32, torch._C = object(), types.SimpleNamespace(_cuda_getCurrentRawStream=lambda device: 0)

    class Tensor:
        allocated = 0  # each stand-in gets memory of its own (never dereferenced: every device is hidden)

        def __init__(self, shape, strides=None, requires_grad=False, device=0):
            Tensor.allocated += 1
            self._ptr = 0x7F0000000000 + Tensor.allocated * (1 << 20)
            self.shape, self._strides = shape, strides or (shape[1], 1)
            self.dtype, self.requires_grad = torch.float32, requires_grad
            self._device, self.is_cuda = device, device >= 0
            self.device = types.SimpleNamespace(index=device if device >= 0 else None)

        def stride(self):
            return self._strides

        def data_ptr(self):
            return self._ptr

        def get_device(self):
            return self._device

        def new_empty(self, *size):
            return Tensor(size, device=self._device)

    Tensor.__module__ = "torch"
    torch.Tensor = Tensor
    sys.modules["torch"] = torch
    return torch


def test_plain_gpu_operands_take_the_direct_path_and_others_the_general_one():
    """Plain PyTorch operands (a stand-in) reach the library through plain_gemm, never the general path; operands
    plain_gemm does not take go the general way, whose checks refuse them as before."""
    stdout = _run_without_devices(
        "import matmul_opt\n"
        "from matmul_opt import device_arrays\n"
        "from test_cpu_device_arrays import install_fake_torch\n"
        "torch = install_fake_torch()\n"
        "general = device_arrays.gemm\n"
        "def unexpected(*args):\n"
        "    raise AssertionError('the general path ran')\n"
        "device_arrays.gemm = unexpected\n"
        "for B in (torch.Tensor((3, 5)), torch.Tensor((3, 5), strides=(1, 3))):  # B as stored, and B.T's view\n"
        "    try:\n"
        "        matmul_opt.run('naive', torch.Tensor((4, 3)), B)\n"
        "    except matmul_opt.NoDeviceError as exc:\n"
        "        print('NoDeviceError:', exc)\n"
        "device_arrays.gemm = general\n"
        "for A in (torch.Tensor((4, 3), requires_grad=True), torch.Tensor((4, 3), device=-1)):\n"
        "    try:\n"
        "        matmul_opt.run('naive', A, torch.Tensor((3, 5)), alpha=2.0)  # autograd: the plain product alone\n"
        "    except (TypeError, ValueError) as exc:\n"
        "        print(type(exc).__name__ + ':', exc)\n"
    )
    lines = stdout.splitlines()
    assert len(lines) == 4, stdout
    assert all(line.startswith("NoDeviceError: no usable CUDA device") for line in lines[:2]), stdout
    assert lines[2].startswith("ValueError: A requires grad"), stdout
    assert lines[3].startswith("ValueError: mixed host and GPU operands"), stdout


def test_plain_numpy_operands_take_the_direct_path_and_others_the_general_one():
    """Plain NumPy operands (writable, C-ordered float32) reach the library through host_path.plain, never the
    general host path; other layouts and dtypes go the general way, which takes or refuses them as before."""
    stdout = _run_without_devices(
        "import numpy as np\n"
        "import matmul_opt\n"
        "from matmul_opt import host_path\n"
        "general, ran = host_path.run, []\n"
        "host_path.run = lambda *args: ran.append(1) or general(*args)\n"
        "rng = np.random.default_rng(0)\n"
        "A, B = (rng.uniform(-1, 1, shape).astype(np.float32) for shape in ((4, 3), (3, 5)))\n"
        "for a in (A, np.asfortranarray(A), A.astype(np.float64)):\n"
        "    try:\n"
        "        matmul_opt.run('naive', a, B)\n"
        "    except (matmul_opt.NoDeviceError, TypeError) as exc:\n"
        "        print(type(exc).__name__, len(ran))\n"
    )
    assert stdout.splitlines() == ["NoDeviceError 0", "NoDeviceError 1", "TypeError 2"], stdout


def test_operands_on_different_gpus_are_refused_before_the_gpu_is_touched():
    """Stand-in PyTorch operands on GPUs 0 and 1 (every device hidden): refused by what they say of themselves."""
    stdout = _run_without_devices(
        "import matmul_opt\n"
        "from test_cpu_device_arrays import install_fake_torch\n"
        "torch = install_fake_torch()\n"
        "on_0, on_1 = torch.Tensor((4, 3), device=0), torch.Tensor((3, 5), device=1)\n"
        "also_on_1, out_on_0 = torch.Tensor((4, 3), device=1), torch.Tensor((4, 5))\n"
        "for call in (lambda: matmul_opt.run('naive', on_0, on_1),\n"
        "             lambda: matmul_opt.run('naive', also_on_1, on_1, out=out_on_0)):\n"
        "    try:\n"
        "        call()\n"
        "    except ValueError as exc:\n"
        "        print('ValueError:', exc)\n"
    )
    assert stdout.splitlines() == [
        "ValueError: the operands lie on different GPUs (A on 0, B on 1); move them to one GPU",
        "ValueError: the operands lie on different GPUs (A on 1, B on 1, out on 0); move them to one GPU"], stdout


def test_cupy_streams_are_asked_of_the_operands_gpu():
    """CuPy keeps a current stream per GPU (get_current_stream(device_id)); an older CuPy has one current stream."""
    asked = []

    def per_device(device_id=-1):
        asked.append(device_id)
        return types.SimpleNamespace(ptr=100 + device_id)

    def single():
        return types.SimpleNamespace(ptr=7)

    for get in (per_device, single):
        runtime = types.SimpleNamespace(getDevice=lambda: 0)
        cupy = types.SimpleNamespace(cuda=types.SimpleNamespace(get_current_stream=get, runtime=runtime))
        adapter = array_adapters.CupyArrays(cupy)
        asked.clear()
        assert adapter.stream(1) == (101 if get is per_device else 7)
        assert asked == ([1] if get is per_device else [])


def test_matmul_on_numpy_operands_goes_to_run_without_importing_pytorch():
    """matmul() hands NumPy operands to run() (which, with every device hidden, reports that) and never imports
    PyTorch: only a tensor brings it in."""
    stdout = _run_without_devices(
        "import sys\n"
        "import numpy as np\n"
        "import matmul_opt\n"
        "rng = np.random.default_rng(3)\n"
        "A, B = (rng.uniform(-1, 1, s).astype(np.float32) for s in ((4, 3), (3, 5)))\n"
        "try:\n"
        "    matmul_opt.matmul(A, B)\n"
        "except matmul_opt.NoDeviceError as exc:\n"
        "    print('NoDeviceError:', exc)\n"
        "print('torch imported:', 'torch' in sys.modules)\n"
    )
    lines = stdout.splitlines()
    assert lines[0].startswith("NoDeviceError: no usable CUDA device"), stdout
    assert lines[1] == "torch imported: False", stdout
