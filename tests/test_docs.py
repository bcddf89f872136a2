"""CPU tier: the figure columns of the README's and docs/ladder.md's kernel tables are those of the committed
report (scripts/doc_figures.py writes them), and the generator puts a changed figure back."""
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("doc_figures", ROOT / "scripts" / "doc_figures.py")
doc_figures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(doc_figures)


def test_committed_tables_match_the_committed_report():
    run = subprocess.run([sys.executable, "scripts/doc_figures.py", "--check"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr


def test_each_table_has_a_row_per_figure_and_a_changed_figure_is_written_back():
    tflops = doc_figures.tflops_by_kernel_and_shape(json.loads(doc_figures.REPORT.read_text()))
    for file, header, write_row in doc_figures.TABLES:
        text = (ROOT / file).read_text()
        lines = text.split("\n")
        first_row = lines[lines.index(header) + 2]
        assert first_row.startswith("| "), f"{file}: no rows under {header}"
        cells = [c.strip() for c in first_row.strip("|").split("|")]
        stale_cells = cells[:-1] + ["0.00"]
        stale = text.replace(first_row, "| " + " | ".join(stale_cells) + " |")
        assert stale != text
        assert doc_figures.rewrite_table(stale, header, write_row, tflops) == text


def test_labels_name_the_report_shapes():
    assert doc_figures.shape_of_label("4096³") == "4096x4096x4096"
    assert doc_figures.shape_of_label("4095×4097×4093") == "4095x4097x4093"
    assert doc_figures.kernel_of_label(" `wgmma_3xtf32` ") == "wgmma_3xtf32"
    assert doc_figures.kernel_of_label("shape") is None
