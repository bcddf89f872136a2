"""The pictures of the docs, drawn from the committed results (no GPU needed).

    python3 -m tools.doc_pictures           write docs/figures/*.svg and the data each one plots (*.json)
    python3 -m tools.doc_pictures --check   exit 1 (naming the pictures) where the committed data differ from
                                            what the committed results give, or a picture is not drawn from them

Pictures:
- ladder.svg: TFLOPS per rung at 4096^3 (results/latest/report-h200.json) against the FP32 FMA and TF32 tensor peaks;
- roofline.svg: the shape grid's products, best and cuBLAS, and the cubes' rungs against the H200's roofline: the
  smaller of the FP32 FMA peak and arithmetic intensity times the HBM read bandwidth measured in the grid's run
  (results/latest/report-grid-h200.json);
- grid.svg: best's speed over cuBLAS's on each shape of the grid, by class.
Each picture's data go beside it as JSON, and the SVG carries their SHA-256 in its title, so the check needs
neither matplotlib nor a byte-exact drawing: drawing needs matplotlib (`python3 -m pip install matplotlib`).
"""
import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "results/latest/report-h200.json"
GRID_REPORT = ROOT / "results/latest/report-grid-h200.json"
FIGURES = ROOT / "docs/figures"

# The H200's arithmetic ceilings: 132 SMs x 128 FP32 lanes x 2 FLOP per FMA x 1.98 GHz, and the datasheet's dense
# TF32 tensor rate.
FP32_PEAK_TFLOPS = 66.9
TF32_PEAK_TFLOPS = 494.7
LADDER_SIZE = 4096
FP32_RUNGS = ["naive", "optimized", "advanced", "warptile", "pipelined", "splitk", "tma", "streamk", "skinny", "best",
              "cublas"]
TENSOR_RUNGS = ["mma_tf32", "wgmma_tf32", "wgmma_3xtf32", "cublas_tf32"]
ROOFLINE_CUBES = [1024, 4096, 8192]


def tflops(report: dict, kernel: str, M: int, N: int, K: int) -> float | None:
    for t in report["timings"]:
        if (t["kernel"], t["M"], t["N"], t["K"]) == (kernel, M, N, K):
            return round(t["gflops"] / 1e3, 2)
    return None


def ladder_data(report: dict) -> dict:
    n = LADDER_SIZE
    bars = [{"kernel": k, "tflops": tflops(report, k, n, n, n), "tensor": k in TENSOR_RUNGS}
            for k in FP32_RUNGS + TENSOR_RUNGS]
    return {"size": n, "fp32_peak": FP32_PEAK_TFLOPS, "tf32_peak": TF32_PEAK_TFLOPS,
            "bars": [b for b in bars if b["tflops"] is not None]}


def intensity(M: int, N: int, K: int) -> float:
    """FLOPs per byte when every operand and C cross HBM once."""
    return 2 * M * N * K / (4 * (M * K + K * N + M * N))


def roofline_data(report: dict, grid_report: dict) -> dict:
    grid = grid_report["grid"]
    points = []
    for row in grid["rows"]:
        M, N, K = row["M"], row["N"], row["K"]
        for kernel, ms in sorted(row["ms"].items()):
            if kernel not in ("best", "cublas"):  # the FP32 roofline: the report's grid also times TF32 kernels
                continue
            points.append({"set": f"grid, {kernel}", "shape": f"{M}x{N}x{K}", "intensity": round(intensity(M, N, K), 3),
                           "tflops": round(2 * M * N * K / (ms * 1e9), 3)})
    for n in ROOFLINE_CUBES:
        for kernel in ("best", "cublas"):
            value = tflops(report, kernel, n, n, n)
            if value is not None:
                points.append({"set": f"cubes, {kernel}", "shape": f"{n}^3", "intensity": round(intensity(n, n, n), 3),
                               "tflops": value})
    return {"fp32_peak": FP32_PEAK_TFLOPS, "hbm_tb_per_s": round(grid["hbm_gb_per_s"] / 1e3, 3), "points": points}


def grid_data(grid_report: dict) -> dict:
    bars = [{"class": row["klass"], "shape": f"{row['M']}x{row['N']}x{row['K']}",
             "best_over_cublas": round(row["ms"]["cublas"] / row["ms"]["best"], 3)} for row in grid_report["grid"]["rows"]]
    return {"bars": bars}


def pictures() -> dict:
    """{name: data} of every picture, from the committed results."""
    report = json.loads(REPORT.read_text())
    grid_report = json.loads(GRID_REPORT.read_text())
    return {"ladder": ladder_data(report), "roofline": roofline_data(report, grid_report), "grid": grid_data(grid_report)}


def serialized(data: dict) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def draw_ladder(plt, data: dict, axes) -> None:
    bars = data["bars"]
    colors = ["tab:orange" if b["tensor"] else "tab:blue" for b in bars]
    axes.bar([b["kernel"] for b in bars], [b["tflops"] for b in bars], color=colors)
    axes.axhline(data["fp32_peak"], color="tab:blue", linestyle="--", label=f"FP32 FMA peak, {data['fp32_peak']}")
    axes.axhline(data["tf32_peak"], color="tab:orange", linestyle="--", label=f"TF32 tensor peak, {data['tf32_peak']}")
    axes.set_yscale("log")
    axes.set_ylabel("TFLOPS")
    axes.set_title(f"TFLOPS per rung at {data['size']}³ on the H200 (orange: tensor cores)")
    axes.tick_params(axis="x", labelrotation=45)
    axes.legend(loc="upper left")


def draw_roofline(plt, data: dict, axes) -> None:
    lo, hi = 0.1, 3000.0
    knee = data["fp32_peak"] / data["hbm_tb_per_s"]
    axes.plot([lo, knee, hi], [lo * data["hbm_tb_per_s"], data["fp32_peak"], data["fp32_peak"]], color="black",
              label=f"roofline: {data['hbm_tb_per_s']} TB/s, {data['fp32_peak']} TFLOPS")
    styles = {"grid, best": ("o", "tab:blue"), "grid, cublas": ("x", "tab:gray"), "cubes, best": ("s", "tab:green"),
              "cubes, cublas": ("+", "tab:red")}
    for name, (marker, color) in styles.items():
        points = [p for p in data["points"] if p["set"] == name]
        axes.scatter([p["intensity"] for p in points], [p["tflops"] for p in points], marker=marker, color=color,
                     label=name, s=18)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("FLOPs per byte of HBM traffic (each operand and C once)")
    axes.set_ylabel("TFLOPS")
    axes.set_title("The shape grid and the cubes against the H200's FP32 roofline")
    axes.legend(loc="lower right", fontsize="small")


def draw_grid(plt, data: dict, axes) -> None:
    bars = data["bars"]
    classes = list(dict.fromkeys(b["class"] for b in bars))
    palette = dict(zip(classes, plt.get_cmap("tab10").colors))
    axes.bar(range(len(bars)), [b["best_over_cublas"] for b in bars], color=[palette[b["class"]] for b in bars])
    axes.axhline(1.0, color="black", linewidth=0.8)
    axes.axhline(0.95, color="black", linewidth=0.8, linestyle=":")
    axes.set_yscale("log", base=2)
    ticks = [0.5, 0.75, 1, 1.5, 2, 3, 4]
    axes.set_yticks(ticks, [f"{t:g}" for t in ticks])
    axes.minorticks_off()
    axes.set_xticks(range(len(bars)), [b["shape"] for b in bars], rotation=90, fontsize="x-small")
    axes.set_ylabel("best / cuBLAS (speed)")
    axes.set_title("best against cuBLAS on the shape grid (dotted: 0.95)")
    for name in classes:
        axes.bar([0], [0], color=palette[name], label=name)
    axes.legend(fontsize="small", ncol=3)


DRAW = {"ladder": (draw_ladder, (9, 5)), "roofline": (draw_roofline, (8, 6)), "grid": (draw_grid, (12, 5))}


def write() -> None:
    try:
        import matplotlib
    except ImportError:
        sys.exit(f"drawing needs matplotlib: {sys.executable} -m pip install matplotlib")
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "matmul-opt"
    import matplotlib.pyplot as plt

    FIGURES.mkdir(parents=True, exist_ok=True)
    for name, data in pictures().items():
        text = serialized(data)
        (FIGURES / f"{name}.json").write_text(text)
        draw, size = DRAW[name]
        figure, axes = plt.subplots(figsize=size)
        draw(plt, data, axes)
        figure.tight_layout()
        figure.savefig(FIGURES / f"{name}.svg", metadata={"Date": None, "Title": f"data sha256 {digest(text)}"})
        plt.close(figure)
        print(f"wrote {FIGURES / name}.svg and .json")


def stale() -> list[str]:
    """The pictures whose committed data or drawing do not follow from the committed results."""
    wrong = []
    for name, data in pictures().items():
        text = serialized(data)
        json_file, svg_file = FIGURES / f"{name}.json", FIGURES / f"{name}.svg"
        if not json_file.exists() or json_file.read_text() != text:
            wrong.append(f"{name}: its data differ from the results'")
        elif not svg_file.exists() or f"data sha256 {digest(text)}" not in svg_file.read_text():
            wrong.append(f"{name}: the picture was not drawn from its data")
    return wrong


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tools.doc_pictures", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="check instead of writing")
    args = parser.parse_args(argv)
    if args.check:
        wrong = stale()
        for line in wrong:
            print(line + " (run `invoke docs`)")
        return 1 if wrong else 0
    write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
