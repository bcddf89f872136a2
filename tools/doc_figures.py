"""The figure columns of the docs' kernel tables, written from the committed report (no GPU needed).

    python3 -m tools.doc_figures           rewrite them from results/latest/report-h200.json
    python3 -m tools.doc_figures --check   exit 1 (naming the rows) where a table differs from the report

Tables (rows are found by the kernel or shape in their first cell; the other cells are left as written):
- README.md, the kernel table: TFLOPS at 1024³ / 3072³ / 4096³ / 8192³ in the last cell; and the tensor-core
  kernels' rested and sustained TFLOPS at 4096³ and 8192³ (the report's sustained table);
- docs/ladder.md, the rung table: TFLOPS at 1024³, 4096³, 8192³ with the share of `cublas` in the same run;
- docs/ladder.md, `best` against cuBLAS: best, cublas and their ratio per shape;
- docs/tutorial/, each chapter's table: the rung's TFLOPS per shape, the rung below's, the gain and the share of
  cuBLAS (CHAPTERS); or, for the chapters of the shape grid (GRID_CHAPTERS), best's and cuBLAS's times per shape
  of results/latest/report-grid-h200.json with the roofline, or, for the chapter of the dispatchers per accuracy
  (PRECISION_CHAPTERS), each dispatcher's time beside the cuBLAS of its accuracy in that run; and the tutorial's
  comparison with the seed article.
The prose around them points to the report instead of citing its figures."""
import json
import re
import sys
from pathlib import Path

from matmul_opt.shape_grid import roofline_ms
from tools.doc_pictures import FP32_PEAK_TFLOPS

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "results/latest/report-h200.json"


def tflops_by_kernel_and_shape(report: dict) -> dict[tuple[str, str], float]:
    return {(t["kernel"], f"{t['M']}x{t['N']}x{t['K']}"): t["gflops"] / 1e3 for t in report["timings"]}


def sustained_tflops_by_kernel_and_shape(report: dict) -> dict[tuple[str, str], float]:
    """The sustained table's TFLOPS: each kernel after seconds of back-to-back launches of the same product."""
    return {(t["kernel"], f"{t['M']}x{t['N']}x{t['K']}"): t["gflops"] / 1e3 for t in report["sustained"]}


def cube(n: int) -> str:
    return f"{n}x{n}x{n}"


def shape_of_label(label: str) -> str:
    """'4096³' -> '4096x4096x4096'; '4095×4097×4093' -> '4095x4097x4093'."""
    label = label.strip()
    return cube(int(label[:-1])) if label.endswith("³") else label.replace("×", "x")


def kernel_of_label(label: str) -> str | None:
    match = re.fullmatch(r"\s*`(\w+)`\s*", label)
    return match.group(1) if match else None


def readme_row(cells: list[str], tflops) -> list[str]:
    kernel = kernel_of_label(cells[0])
    cells[-1] = " / ".join(f"{tflops[kernel, cube(n)]:.2f}" for n in (1024, 3072, 4096, 8192))
    return cells


SUSTAINED_HEADER = "| kernel | 4096³ rested | 4096³ sustained | 8192³ rested | 8192³ sustained |"


def sustained_row(cells: list[str], figures) -> list[str]:
    """A row of the README's table of rested and sustained TFLOPS (figures: the two maps)."""
    rested, sustained = figures
    kernel = kernel_of_label(cells[0])
    cells[1:5] = [f"{table[kernel, cube(n)]:.1f}" for n in (4096, 8192) for table in (rested, sustained)]
    return cells


def rung_row(cells: list[str], tflops) -> list[str]:
    kernel = kernel_of_label(cells[0])
    for i, n in zip((-3, -2, -1), (1024, 4096, 8192)):
        value, cublas = tflops[kernel, cube(n)], tflops["cublas", cube(n)]
        cells[i] = f"{value:.2f} ({100 * value / cublas:.0f}%)"
    return cells


def best_row(cells: list[str], tflops) -> list[str]:
    shape = shape_of_label(cells[0])
    best, cublas = tflops["best", shape], tflops["cublas", shape]
    cells[1:4] = [f"{best:.2f}", f"{cublas:.2f}", f"{best / cublas:.3f}"]
    return cells


def chapter_row(kernel: str, below: str | None, baseline: str):
    """How a row of a tutorial chapter's table is written: the rung's TFLOPS at the row's shape, the rung below's and
    the gain over it, and the share of the cuBLAS baseline of its arithmetic."""
    def write(cells: list[str], tflops) -> list[str]:
        shape = shape_of_label(cells[0])
        value = tflops[kernel, shape]
        cells[1] = f"{value:.2f}"
        cells[2], cells[3] = ("-", "-") if below is None else (f"{tflops[below, shape]:.2f}",
                                                               f"{value / tflops[below, shape]:.2f}x")
        cells[4] = f"{100 * value / tflops[baseline, shape]:.0f}% of `{baseline}`"
        return cells
    return write


GRID_REPORT = ROOT / "results/latest/report-grid-h200.json"
GRID_HEADER = "| shape | class | floor, µs | best, µs | cuBLAS, µs | best / cuBLAS | best's share of the roofline |"


def grid_row_of(label: str, grid: dict) -> dict:
    """The grid run's row of the shape a table row names ('4097×4097×4097')."""
    shape = tuple(map(int, shape_of_label(label).split("x")))
    return next(r for r in grid["rows"] if (r["M"], r["N"], r["K"]) == shape)


def grid_row(cells: list[str], grid: dict) -> list[str]:
    """A row of a chapter's grid table: the shape's roofline floor, best's and cuBLAS's times in the grid's run, and
    best's share of the floor (the FP32 peak of docs/figures, the HBM bandwidth measured in the run)."""
    row = grid_row_of(cells[0], grid)
    M, N, K = row["M"], row["N"], row["K"]
    floor = roofline_ms(M, N, K, FP32_PEAK_TFLOPS * 1e3, grid["hbm_gb_per_s"])
    best, cublas = row["ms"]["best"], row["ms"]["cublas"]
    cells[1:7] = [row["klass"], f"{1e3 * floor:.1f}", f"{1e3 * best:.1f}", f"{1e3 * cublas:.1f}",
                  f"{cublas / best:.2f}x", f"{100 * floor / best:.0f}%"]
    return cells


PRECISION_HEADER = ("| shape | class | best_tf32, µs | cuBLAS TF32, µs | best_tf32 / cuBLAS TF32 | best_fp32_accurate, µs "
                    "| cuBLAS fp32, µs | best_fp32_accurate / cuBLAS fp32 |")


def precision_row(cells: list[str], grid: dict) -> list[str]:
    """A row of the dispatchers' grid table: each dispatcher's time in the grid's run beside the cuBLAS of its
    accuracy (TF32 for best_tf32, fp32 for best_fp32_accurate), and their ratio (> 1: faster than cuBLAS)."""
    row = grid_row_of(cells[0], grid)
    ms = row["ms"]
    cells[1:8] = [row["klass"], f"{1e3 * ms['best_tf32']:.1f}", f"{1e3 * ms['cublas_tf32']:.1f}",
                  f"{ms['cublas_tf32'] / ms['best_tf32']:.2f}x", f"{1e3 * ms['best_fp32_accurate']:.1f}",
                  f"{1e3 * ms['cublas']:.1f}", f"{ms['cublas'] / ms['best_fp32_accurate']:.2f}x"]
    return cells


# The tutorial's chapters: (file, rung, the rung below, the cuBLAS baseline of its arithmetic).
CHAPTERS = [
    ("docs/tutorial/01-naive.md", "naive", None, "cublas"),
    ("docs/tutorial/02-optimized.md", "optimized", "naive", "cublas"),
    ("docs/tutorial/03-advanced.md", "advanced", "optimized", "cublas"),
    ("docs/tutorial/04-warptile.md", "warptile", "advanced", "cublas"),
    ("docs/tutorial/05-pipelined.md", "pipelined", "warptile", "cublas"),
    ("docs/tutorial/06-splitk.md", "splitk", "pipelined", "cublas"),
    ("docs/tutorial/07-tma.md", "tma", "pipelined", "cublas"),
    ("docs/tutorial/08-streamk.md", "streamk", "tma", "cublas"),
    ("docs/tutorial/13-mma_tf32.md", "mma_tf32", "pipelined", "cublas_tf32"),
    ("docs/tutorial/14-wgmma_tf32.md", "wgmma_tf32", "mma_tf32", "cublas_tf32"),
    ("docs/tutorial/15-wgmma_3xtf32.md", "wgmma_3xtf32", "wgmma_tf32", "cublas"),
    ("docs/tutorial/17-ozaki_int8.md", "ozaki_int8", "wgmma_3xtf32", "cublas"),
]
CHAPTER_HEADER = "| size | TFLOPS | the rung below | gain | share of cuBLAS |"

SEED_HEADER = ("| the article's step | V100 (the article), 1024² / 2048² / 4096² | rung here | H200 TFLOPS at 1024³ / 2048³ / "
               "4096³ | share of the H200's FP32 peak at 4096³ |")


def seed_row(cells: list[str], tflops) -> list[str]:
    """A row of the seed article's comparison: the rung's TFLOPS at the article's sizes and its share of the FP32
    peak (the article's own figures, in the second cell, are quoted as it gives them)."""
    kernel = kernel_of_label(cells[2])
    cells[3] = " / ".join(f"{tflops[kernel, cube(n)]:.2f}" for n in (1024, 2048, 4096))
    cells[4] = f"{100 * tflops[kernel, cube(4096)] / FP32_PEAK_TFLOPS:.0f}%"
    return cells


# (file, the header line that opens the table, how a row's cells are written)
TABLES = [
    ("README.md", "| kernel | technique | H200 TFLOPS at 1024³ / 3072³ / 4096³ / 8192³ |", readme_row),
    ("docs/ladder.md", "| rung | adds | composes | 1024³ | 4096³ | 8192³ |", rung_row),
    ("docs/ladder.md", "| shape | best | cublas | best / cublas |", best_row),
    ("docs/tutorial/seed-article.md", SEED_HEADER, seed_row),
] + [(file, CHAPTER_HEADER, chapter_row(kernel, below, baseline)) for file, kernel, below, baseline in CHAPTERS]
# Chapters whose table is of the shape grid (best beside cuBLAS): rows are written by grid_row.
GRID_CHAPTERS = ["docs/tutorial/09-skinny.md", "docs/tutorial/10-shortk.md", "docs/tutorial/11-longk.md",
                 "docs/tutorial/12-best.md"]
# The chapter of the dispatchers per accuracy, whose table is of the shape grid too: rows are written by
# precision_row.
PRECISION_CHAPTERS = ["docs/tutorial/16-by_precision.md"]


def rewrite_table(text: str, header: str, write_row, figures) -> str:
    lines = text.split("\n")
    start = lines.index(header) + 2  # past the header and its |---| line
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        cells = [c.strip() for c in lines[end].strip("|").split("|")]
        lines[end] = "| " + " | ".join(write_row(cells, figures)) + " |"
        end += 1
    return "\n".join(lines)


def main() -> int:
    report = json.loads(REPORT.read_text())
    tflops = tflops_by_kernel_and_shape(report)
    grid = json.loads(GRID_REPORT.read_text())["grid"]
    check = "--check" in sys.argv[1:]
    stale = []
    sustained = sustained_tflops_by_kernel_and_shape(report)
    tables = [(file, header, write_row, tflops) for file, header, write_row in TABLES] + \
             [("README.md", SUSTAINED_HEADER, sustained_row, (tflops, sustained))] + \
             [(file, GRID_HEADER, grid_row, grid) for file in GRID_CHAPTERS] + \
             [(file, PRECISION_HEADER, precision_row, grid) for file in PRECISION_CHAPTERS]
    for name in dict.fromkeys(file for file, *_ in tables):
        path = ROOT / name
        text = path.read_text()
        new = text
        for file, header, write_row, figures in tables:
            if file == name:
                new = rewrite_table(new, header, write_row, figures)
        if new == text:
            continue
        if check:
            old_lines, new_lines = text.split("\n"), new.split("\n")
            stale += [f"{name}: {old}" for old, fresh in zip(old_lines, new_lines) if old != fresh]
        else:
            path.write_text(new)
            print(f"rewrote {name}")
    if stale:
        print("tables that differ from results/latest/report-h200.json and report-grid-h200.json (python3 -m "
              "tools.doc_figures writes them):")
        print("\n".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
