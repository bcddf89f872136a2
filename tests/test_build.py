"""CPU tier: the Makefile gives files named *_sm90a.cu sm_90a machine code alone, and every other file the
architecture asked for (machine code and PTX), in one library."""
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
