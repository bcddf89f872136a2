"""The machine code of the tensor-core kernels: each uses the matrix instruction it is written around and keeps its
values in registers (no local-memory loads or stores). Reads the built library with cuobjdump, which comes with
the CUDA toolkit; no GPU is needed, and the tests skip where cuobjdump is not found."""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from matmul_opt._library import library_path

# (kernel function name fragment, a pattern of the instruction its SASS must hold)
TENSOR_CORE_KERNELS = [("mma_tf32_kernel", r"HMMA\.1688\.F32\.TF32"),
                      # its wide, narrow and small-side tiles
                      ("wgmma_tf32_kernel", r"HGMMA\.64x(256|128|64|32|24|16|8)x8\.F32\.TF32"),
                      ("wgmma_3xtf32_kernel", r"HGMMA\.64x128x8\.F32\.TF32"),
                      ("wgmma_3xtf32_register_split_kernel", r"HGMMA\.64x(64|32|24|16|8)x8\.F32\.TF32"),
                      ("ozaki_int8_kernel", r"IGMMA\.64x256x32\.S8\.S8")]


def cuobjdump() -> str | None:
    candidates = [shutil.which("cuobjdump")]
    candidates += [str(Path(os.environ[v]) / "bin" / "cuobjdump") for v in ("CUDA_HOME", "CUDA_PATH") if v in os.environ]
    candidates.append("/usr/local/cuda/bin/cuobjdump")
    return next((c for c in candidates if c and Path(c).is_file()), None)


@pytest.fixture(scope="module")
def functions() -> dict[str, str]:
    """Every kernel's SASS in the library, by mangled name."""
    tool = cuobjdump()
    if tool is None:
        pytest.skip("cuobjdump not found (it ships with the CUDA toolkit)")
    if not library_path().exists():
        pytest.skip(f"{library_path()} is not built")
    dump = subprocess.run([tool, "--dump-sass", str(library_path())], capture_output=True, text=True, timeout=300,
                          check=True).stdout
    parts = re.split(r"^\s*Function : (\S+)\s*$", dump, flags=re.M)
    functions: dict[str, str] = {}
    for name, sass in zip(parts[1::2], parts[2::2]):  # a function may appear in more than one ELF of the fat binary
        functions[name] = functions.get(name, "") + sass
    return functions


@pytest.mark.parametrize("kernel, instruction", TENSOR_CORE_KERNELS)
def test_tensor_core_kernels_use_their_instruction_and_no_local_memory(functions, kernel, instruction):
    # The name as an identifier of its own in the mangled name (mma_tf32_kernel is not wgmma_tf32_kernel).
    found = {name: sass for name, sass in functions.items() if re.search(rf"(?<![A-Za-z_]){kernel}", name)}
    assert found, f"no function named like {kernel} in the library"
    for name, sass in found.items():
        assert re.search(instruction, sass), f"{name} has no {instruction}"
        assert not re.search(r"\b(LDL|STL)(\.|\s)", sass), f"{name} spills to local memory"
