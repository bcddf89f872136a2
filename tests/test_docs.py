"""Generated, never typed (CPU tier): the figure columns of the README's and docs/ladder.md's kernel tables are those
of the committed report (tools/doc_figures.py writes them), and the generator puts a changed figure back; the
pictures under docs/figures/ plot what the committed results give (tools/doc_pictures.py). And the README's quick
start prints what it shows (its kernel listing on the CPU tier, the whole of it on the GPU tier)."""
import doctest
import importlib.util
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools import doc_figures, doc_pictures  # noqa: E402


def test_committed_tables_match_the_committed_report():
    run = subprocess.run([sys.executable, "-m", "tools.doc_figures", "--check"], cwd=ROOT, capture_output=True,
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


def test_committed_pictures_are_drawn_from_the_committed_results():
    run = subprocess.run([sys.executable, "-m", "tools.doc_pictures", "--check"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_changed_result_leaves_the_pictures_that_plot_it_stale(tmp_path, monkeypatch):
    report = json.loads(doc_pictures.REPORT.read_text())
    timing = next(t for t in report["timings"] if (t["kernel"], t["M"]) == ("best", doc_pictures.LADDER_SIZE))
    timing["gflops"] *= 1.5
    changed = tmp_path / "report.json"
    changed.write_text(json.dumps(report))
    monkeypatch.setattr(doc_pictures, "REPORT", changed)
    stale = doc_pictures.stale()
    assert [line.split(":")[0] for line in stale] == ["ladder", "roofline"], stale


def test_labels_name_the_report_shapes():
    assert doc_figures.shape_of_label("4096³") == "4096x4096x4096"
    assert doc_figures.shape_of_label("4095×4097×4093") == "4095x4097x4093"
    assert doc_figures.kernel_of_label(" `wgmma_3xtf32` ") == "wgmma_3xtf32"
    assert doc_figures.kernel_of_label("shape") is None


def readme_quick_start() -> list:
    """The examples of the README's quick start (its Python block), as doctest reads them."""
    text = (ROOT / "README.md").read_text()
    block = re.search(r"## Quick start\n\n```python\n(.*?)```", text, re.S)
    assert block, "README.md: no Python block under '## Quick start'"
    return doctest.DocTestParser().get_examples(block.group(1))


def failures_of(examples: list) -> str:
    """What doctest reports for the examples run in order in one namespace (empty when every output matches)."""
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(doctest.DocTest(examples, {}, "README quick start", "README.md", 0, None), out=report.write)
    return report.getvalue() if runner.failures else ""


def test_the_readme_lists_the_kernels_this_build_registers():
    examples = readme_quick_start()
    listing = [i for i, e in enumerate(examples) if "kernel_names()" in e.source]
    assert listing, "the quick start no longer lists the kernels"
    assert failures_of(examples[:listing[0] + 1]) == ""


@pytest.mark.gpu
def test_the_readme_quick_start_prints_what_it_shows():
    assert failures_of(readme_quick_start()) == ""


def tutorial_excerpts():
    """(chapter, source path, excerpt lines) of every code block in docs/tutorial/ whose first line names its
    source (`// cuda/...`)."""
    for chapter in sorted((ROOT / "docs/tutorial").glob("*.md")):
        for block in re.findall(r"```cpp\n(.*?)```", chapter.read_text(), flags=re.S):
            first, *lines = block.rstrip("\n").split("\n")
            if first.startswith("// cuda/"):
                yield chapter.name, first[3:].strip(), lines


def test_the_tutorial_quotes_its_sources_as_they_are():
    excerpts = list(tutorial_excerpts())
    assert len(excerpts) >= 5
    for chapter, source, lines in excerpts:
        source_lines = set((ROOT / source).read_text().split("\n"))
        missing = [line for line in lines if line not in source_lines]
        assert not missing, f"{chapter} quotes {source} with lines it does not hold: {missing}"


def test_every_tutorial_chapter_is_in_the_index_and_in_doc_figures():
    chapters = {p.name for p in (ROOT / "docs/tutorial").glob("[0-9][0-9]-*.md")}
    index = (ROOT / "docs/tutorial/README.md").read_text()
    assert chapters == set(re.findall(r"\]\((\d\d-[\w-]+\.md)\)", index))
    assert chapters == {Path(file).name for file, *_ in doc_figures.CHAPTERS} | \
        {Path(file).name for file in doc_figures.GRID_CHAPTERS + doc_figures.PRECISION_CHAPTERS}


# Chapters named after dispatchers, which add no kernel of their own to profile (the first name in the title).
DISPATCHER_CHAPTERS = {"best", "best_tf32"}


def test_the_nsight_compute_table_is_the_one_its_summaries_give():
    """docs/tutorial/ncu/README.md is written by summarize.py from the committed per-rung summaries; every rung of
    the tutorial has one."""
    spec = importlib.util.spec_from_file_location("summarize", ROOT / "docs/tutorial/ncu/summarize.py")
    summarize = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(summarize)
    chapters = {re.search(r"`(\w+)`", path.read_text().split("\n", 1)[0]).group(1)
                for path in (ROOT / "docs/tutorial").glob("[0-9][0-9]-*.md")}
    assert chapters - DISPATCHER_CHAPTERS == set(summarize.RUNGS)
    assert (ROOT / "docs/tutorial/ncu/README.md").read_text() == summarize.render(), \
        "python3 docs/tutorial/ncu/summarize.py rewrites the table"
