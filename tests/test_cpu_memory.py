"""CPU tier: what memory_held() reports and what release_memory() calls (matmul_opt.memory), with the library
standing in where the GPU would hold memory, and both entries without a GPU."""
import ctypes
import json
import re
from pathlib import Path

import pytest

import matmul_opt
from matmul_opt import _library, memory
from test_cpu_api import python_output

ROOT = Path(__file__).resolve().parent.parent
KEYS = {"pinned_arrays", "pinned_cached", "pinned_staging", "device_pooled"}


class FakeLibrary:
    """mm_memory_held and mm_release_memory, recording their calls in `calls`."""

    def __init__(self, calls, held=(0, 0, 0), release_status=0):
        self.calls, self.held, self.release_status = calls, held, release_status

    def mm_memory_held(self, pointer):
        self.calls.append("mm_memory_held")
        for key, value in zip(memory.LIBRARY_KEYS, self.held):
            setattr(pointer._obj, key, value)
        return 0

    def mm_release_memory(self):
        self.calls.append("mm_release_memory")
        return self.release_status


@pytest.fixture
def registry(monkeypatch):
    """An empty registry for the test (what other modules registered comes back after it)."""
    monkeypatch.setattr(memory, "_registered", {})


def test_memory_held_gives_the_pinned_arrays_and_the_librarys_three_counts(registry, monkeypatch):
    calls = []
    monkeypatch.setattr(memory, "loaded_library", lambda: FakeLibrary(calls, held=(2 << 20, 80 << 20, 1 << 30)))
    monkeypatch.setattr(memory.pinned, "held_bytes", lambda: 6 << 20)
    assert matmul_opt.memory_held() == {"pinned_arrays": 6 << 20, "pinned_cached": 2 << 20,
                                        "pinned_staging": 80 << 20, "device_pooled": 1 << 30}
    assert calls == ["mm_memory_held"]


def test_registered_keys_are_reported_and_their_releases_run_before_the_librarys(registry, monkeypatch):
    calls = []
    monkeypatch.setattr(memory, "loaded_library", lambda: FakeLibrary(calls))
    memory.register("blocks", lambda: 18 << 20, lambda: calls.append("blocks"))
    memory.register("spares", lambda: 3, lambda: calls.append("spares"))
    held = matmul_opt.memory_held()
    assert set(held) == KEYS | {"blocks", "spares"} and (held["blocks"], held["spares"]) == (18 << 20, 3)
    calls.clear()
    matmul_opt.release_memory()
    assert calls == ["blocks", "spares", "mm_release_memory"]


def test_registering_a_name_again_replaces_it_and_the_own_keys_are_refused(registry):
    memory.register("blocks", lambda: 1, lambda: None)
    memory.register("blocks", lambda: 2, lambda: None)
    assert matmul_opt.memory_held()["blocks"] == 2
    for key in KEYS:
        with pytest.raises(ValueError, match="own keys"):
            memory.register(key, lambda: 0, lambda: None)


def test_a_failing_release_leaves_the_others_to_run_and_is_raised(registry, monkeypatch):
    calls = []
    monkeypatch.setattr(memory, "loaded_library", lambda: FakeLibrary(calls))

    def fails():
        calls.append("fails")
        raise OSError("cannot free")

    memory.register("fails", lambda: 0, fails)
    memory.register("frees", lambda: 0, lambda: calls.append("frees"))
    with pytest.raises(OSError, match="cannot free"):
        matmul_opt.release_memory()
    assert calls == ["fails", "frees", "mm_release_memory"]


def test_a_failing_library_release_raises_its_error(registry, monkeypatch):
    monkeypatch.setattr(memory, "loaded_library", lambda: FakeLibrary([], release_status=6))
    monkeypatch.setattr(_library, "library", lambda: type("L", (), {"mm_last_error": lambda self: b"trim failed"})())
    with pytest.raises(matmul_opt.CudaError, match="trim failed"):
        matmul_opt.release_memory()


def test_the_struct_has_the_fields_of_the_c_header():
    header = (ROOT / "cuda/matmul.h").read_text()
    body = re.search(r"typedef struct \{([^}]*)\} mm_held_memory;", header).group(1)
    fields = re.findall(r"uint64_t (\w+);", body)
    assert fields == [name for name, _ in _library.HeldMemoryStruct._fields_] == list(memory.LIBRARY_KEYS)
    assert all(kind is ctypes.c_uint64 for _, kind in _library.HeldMemoryStruct._fields_)


def test_the_c_entry_refuses_a_null_struct():
    lib = _library.library()
    assert lib.mm_memory_held(None) == 1  # MM_ERR_INVALID_ARGUMENT
    assert b"held is a null pointer" in lib.mm_last_error()


def test_without_a_gpu_both_work_and_hold_nothing():
    # Hiding every device gives the no-GPU path on any machine, the H200 included: before the library is loaded,
    # after, and after a call that found no GPU.
    code = (
        "import json, numpy as np, matmul_opt\n"
        "from matmul_opt import _library\n"
        "def show():\n"
        "    print(json.dumps([matmul_opt.memory_held(), _library.loaded_library() is not None]))\n"
        "show()\n"
        "matmul_opt.release_memory()\n"
        "try:\n"
        "    matmul_opt.run('best', np.ones((600, 600), np.float32), np.ones((600, 600), np.float32))\n"
        "except matmul_opt.NoDeviceError:\n"
        "    pass\n"
        "matmul_opt.release_memory()\n"
        "show()\n"
    )
    shown = [json.loads(line) for line in python_output(code, CUDA_VISIBLE_DEVICES="").strip().splitlines()]
    assert [loaded for _, loaded in shown] == [False, True]  # memory_held and release_memory load nothing
    for held, _ in shown:
        assert KEYS <= set(held) and set(held.values()) == {0}, held


def test_without_the_library_both_work_and_hold_nothing():
    code = "import json, matmul_opt\nmatmul_opt.release_memory()\nprint(json.dumps(matmul_opt.memory_held()))\n"
    held = json.loads(python_output(code, MATMUL_OPT_LIBRARY="/nonexistent/libmatmul.so"))
    assert KEYS <= set(held) and set(held.values()) == {0}
