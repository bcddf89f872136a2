"""CPU tier: every Python tool in tools/ imports as a module of the package `tools` from the repository root
(`python3 -m tools.NAME`), reaching matmul_opt and the asv suite (benchmarks) without editing sys.path; and the
cubin comparison matches kernels by their machine code, in cubins and in two builds of the library."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOLS = sorted(path.stem for path in (ROOT / "tools").glob("*.py") if path.stem != "__init__")


def test_every_tool_imports_from_the_repository_root_without_editing_sys_path():
    assert {"regressions", "results", "graph", "doc_figures", "sanitize", "sanitize_driver"} <= set(TOOLS)
    for name in TOOLS:
        text = (ROOT / "tools" / f"{name}.py").read_text()
        assert "sys.path." not in text and "sys.path[" not in text, f"tools/{name}.py edits sys.path"
    code = "import importlib, sys; [importlib.import_module('tools.' + name) for name in sys.argv[1:]]"
    run = subprocess.run([sys.executable, "-c", code, *TOOLS], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr


def test_cubin_compare_matches_kernels_by_their_code(tmp_path):
    """The same kernel in another namespace matches its counterpart; a kernel whose code changed does not (nvcc
    needed, no GPU)."""
    if shutil.which("nvcc") is None:
        pytest.skip("nvcc not found")
    kernel = "__global__ void scale(float* x, float a) {{ x[threadIdx.x] {op} a; }}\n"
    sources = {"old": "namespace old {{ " + kernel + "}}", "same": "namespace moved {{ " + kernel + "}}",
               "changed": "namespace old {{ " + kernel + "}}"}
    for name, source in sources.items():
        folder = tmp_path / name
        folder.mkdir()
        (folder / "k.cu").write_text(source.format(op="+=" if name == "changed" else "*="))
        subprocess.run(["nvcc", "-cubin", "-arch=sm_90", "-o", str(folder / "k.cubin"), str(folder / "k.cu")],
                       check=True, capture_output=True, timeout=120)
    compare = [sys.executable, "-m", "tools.cubin_compare"]
    same = subprocess.run(compare + [str(tmp_path / "old"), str(tmp_path / "same")], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert same.returncode == 0 and "identical machine code: 1" in same.stdout, same.stdout + same.stderr
    changed = subprocess.run(compare + [str(tmp_path / "old"), str(tmp_path / "changed")], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
    assert changed.returncode == 1 and "only after" in changed.stdout, changed.stdout + changed.stderr
    # A one-line kernel is a handful of instructions (loads, the operation, a store, the exit), not zero or hundreds.
    counts = [int(n) for n in re.findall(r"only after: \S+ \((\d+) instructions\)", changed.stdout)]
    assert len(counts) == 1 and 4 <= counts[0] <= 64, changed.stdout


def test_cubin_compare_reads_a_zstd_compressed_cubin_per_kernel(tmp_path):
    """A cubin as nvcc stores a large one in the fat binary (zstd, padded with zeros to 8 bytes) compares kernel by
    kernel with the plain cubin (nvcc and the zstd command needed, no GPU)."""
    if shutil.which("nvcc") is None or shutil.which("zstd") is None:
        pytest.skip("nvcc or zstd not found")
    for name in ("plain", "compressed"):
        (tmp_path / name).mkdir()
    (tmp_path / "k.cu").write_text("__global__ void scale(float* x, float a) { x[threadIdx.x] *= a; }\n")
    plain = tmp_path / "plain" / "k.cubin"
    subprocess.run(["nvcc", "-cubin", "-arch=sm_90", "-o", str(plain), str(tmp_path / "k.cu")], check=True,
                   capture_output=True, timeout=120)
    frame = subprocess.run(["zstd", "-c", "-q", str(plain)], check=True, capture_output=True, timeout=60).stdout
    (tmp_path / "compressed" / "k.cubin").write_bytes(frame + bytes(-len(frame) % 8 or 8))
    compare = subprocess.run([sys.executable, "-m", "tools.cubin_compare", str(tmp_path / "plain"),
                              str(tmp_path / "compressed")], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert compare.returncode == 0 and "identical machine code: 1" in compare.stdout, compare.stdout + compare.stderr
    assert "compressed cubin" not in compare.stdout


def test_cubin_compare_reads_the_kernels_of_two_library_builds(tmp_path, capsys):
    """Two builds of the library compare by the cubins of their fat binaries: a copy holds the same code, and a copy
    with one byte of one kernel's code changed does not (the built library needed, no GPU)."""
    from matmul_opt._library import library_path
    from tools import cubin_compare

    library = library_path()
    data = library.read_bytes()
    kernels = cubin_compare.collect(library)
    assert sum("skinny" in name for name in kernels) > 10, "the skinny kernel's instantiations are not all read"
    code = next(code for code in sorted(kernels.values(), key=len, reverse=True) if data.count(code) == 1)
    at = data.find(code) + 8  # the first instruction's second word
    changed = bytearray(data)
    changed[at] ^= 0xFF
    (tmp_path / "same.so").write_bytes(data)
    (tmp_path / "changed.so").write_bytes(bytes(changed))
    assert cubin_compare.main([str(library), str(tmp_path / "same.so")]) == 0
    assert f"identical machine code: {len(kernels)}" in capsys.readouterr().out
    assert cubin_compare.main([str(library), str(tmp_path / "changed.so")]) == 1
    assert capsys.readouterr().out.count("only after") == 1


def fake_sanitizer(monkeypatch, tmp_path, slow=()):
    """tools.sanitize with a fake compute-sanitizer: every run clean, but a kernel in `slow` times out. Returns the
    commands run."""
    from tools import sanitize

    commands = []

    def fake_run(command, cwd, capture_output, text, timeout):
        commands.append(command)
        kernels = command[command.index("--kernels") + 1] if "--kernels" in command else ""
        if kernels in slow:
            raise subprocess.TimeoutExpired(command, timeout, output=b"partial", stderr=b"")
        summary = ("RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)" if "racecheck" in command else
                   "ERROR SUMMARY: 0 errors")
        return subprocess.CompletedProcess(command, 0, stdout=f"========= {summary}\n", stderr="")

    monkeypatch.setattr(sanitize.shutil, "which", lambda name: sys.executable)  # a path that exists
    monkeypatch.setattr(sanitize.subprocess, "run", fake_run)
    monkeypatch.setattr(sanitize, "LOGS", tmp_path)
    return commands


def test_sanitize_runs_one_process_per_tool_over_every_kernel_by_default(monkeypatch, tmp_path, capsys):
    from tools import sanitize

    commands = fake_sanitizer(monkeypatch, tmp_path)
    assert sanitize.main(["--tools", "memcheck,racecheck", "--kernels", "skinny,longk"]) == 0
    assert [command[2] for command in commands] == ["memcheck", "racecheck"]
    assert all(command[-2:] == ["--kernels", "skinny,longk"] for command in commands)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["sanitizer-memcheck.log", "sanitizer-racecheck.log"]
    assert "all sanitizer runs clean" in capsys.readouterr().out


def test_sanitize_jobs_split_the_runs_by_kernel_and_a_run_past_its_timeout_fails(monkeypatch, tmp_path, capsys):
    from tools import sanitize

    commands = fake_sanitizer(monkeypatch, tmp_path, slow={"longk"})
    assert sanitize.main(["--tools", "racecheck", "--kernels", "skinny,longk,splitk", "--jobs", "3",
                          "--timeout", "5"]) == 1
    assert sorted(command[-1] for command in commands) == ["longk", "skinny", "splitk"]
    assert sorted(path.name for path in tmp_path.iterdir()) == \
        ["sanitizer-racecheck-longk.log", "sanitizer-racecheck-skinny.log", "sanitizer-racecheck-splitk.log"]
    assert "stopped after 5 s" in (tmp_path / "sanitizer-racecheck-longk.log").read_text()
    captured = capsys.readouterr()
    assert "racecheck longk: did not finish in 5 s" in captured.out
    assert "racecheck longk" in captured.err and "racecheck skinny" not in captured.err
