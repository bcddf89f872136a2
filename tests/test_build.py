"""CPU tier: the Makefile gives files named *_sm90a.cu sm_90a machine code alone, and every other file the
architecture asked for (machine code and PTX), in one library; in *_sm90a.cu files ptxas refuses local memory."""
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def dry_run(tmp_path, *variables):
    """The compile command of each source in a dry run of a clean build (make -n: nothing is compiled)."""
    run = subprocess.run(["make", "-n", "-B", f"BUILD={tmp_path}/build", f"LIBRARY={tmp_path}/lib.so", *variables],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return {line.split(" -c ")[1].split()[0]: line for line in run.stdout.splitlines() if " -c cuda/" in line}


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.parametrize("arch, code", [(None, "code=[sm_90,compute_90]"), ("sm_86", "code=[sm_86,compute_86]")])
def test_sm90a_sources_get_sm90a_machine_code_alone(tmp_path, arch, code):
    variables = ["SM90A_SOURCES=cuda/kernels/naive.cu"] + ([f"ARCH={arch}"] if arch else [])
    commands = dry_run(tmp_path, *variables)
    assert "-gencode arch=compute_90a,code=sm_90a" in commands["cuda/kernels/naive.cu"]
    assert code not in commands["cuda/kernels/naive.cu"]
    for source, command in commands.items():
        if source != "cuda/kernels/naive.cu":
            assert code in command and "compute_90a" not in command, command


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_every_source_under_cuda_is_built(tmp_path):
    sources = {str(path.relative_to(ROOT)) for path in (ROOT / "cuda").rglob("*.cu")}
    assert set(dry_run(tmp_path)) == sources


# Writes and reads at indices known only at run time keep the array in local memory; the second kernel needs none.
LOCAL_MEMORY_KERNELS = {
    "local": """
__global__ void uses_local_memory(float* out, int i) {
    float scratch[64];
    for (int k = 0; k < 64; ++k) scratch[k] = out[k];
    for (int k = 0; k < 64; ++k) scratch[(k * i) & 63] += 1.0f;
    out[0] = scratch[i & 63];
}
""",
    "registers": """
__global__ void uses_registers(float* out, int i) { out[0] = out[i & 63] + 1.0f; }
""",
}


@pytest.mark.skipif(shutil.which("make") is None or shutil.which("nvcc") is None, reason="make or nvcc is missing")
def test_sm90a_sources_fail_to_build_when_a_kernel_uses_local_memory(tmp_path):
    command = shlex.split(dry_run(tmp_path)["cuda/kernels/wgmma_tf32_sm90a.cu"])
    results = {}
    for name, code in LOCAL_MEMORY_KERNELS.items():
        source = tmp_path / f"{name}.cu"
        source.write_text(code)
        args = [str(source) if a == "cuda/kernels/wgmma_tf32_sm90a.cu" else a for a in command]
        args[args.index("-o") + 1] = str(tmp_path / f"{name}.o")
        results[name] = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert results["registers"].returncode == 0, results["registers"].stderr
    assert results["local"].returncode != 0
    assert "Local memory used" in results["local"].stderr, results["local"].stderr
