"""CPU tier: every Python tool in tools/ imports as a module of the package `tools` from the repository root
(`python3 -m tools.NAME`), reaching matmul_opt and the asv suite (benchmarks) without editing sys.path."""
import subprocess
import sys
from pathlib import Path

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
