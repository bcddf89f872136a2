"""The A/B table of a call's logs: medians over every round of every process of ab.py's JSON files
(ab-BASE-i.json, ab-NEW-i.json), `best` of both libraries beside cuBLAS fp32, the share of the roofline (the HBM
read bandwidth the base's processes measured), the ratio, and the base's spread (slowest / fastest process median).

    PYTHONPATH=. python3 compare.py logs/call3 --base main --new new2
"""
import argparse
import glob
import json
import statistics

from matmul_opt.shape_grid import roofline_ms


def load(folder, lib):
    times, meta = {}, None
    for path in sorted(glob.glob(f"{folder}/ab-{lib}-*.json")):
        meta = json.load(open(path))
        for key, values in meta["times"].items():
            times.setdefault(key, []).append(statistics.median(values))
    return times, meta


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--base", default="main")
    parser.add_argument("--new", default="new")
    args = parser.parse_args()
    base, meta = load(args.folder, args.base)
    new, _ = load(args.folder, args.new)
    shapes = list(dict.fromkeys(key.split()[1] for key in base))
    print(f"| shape | floor | cuBLAS | {args.base} best | {args.new} best | new / base | base spread | skinny |")
    print("|---|---|---|---|---|---|---|---|")
    for shape in shapes:
        M, N, K = map(int, shape.split("x"))
        floor = roofline_ms(M, N, K, meta["peak_gflops"], meta["hbm_gb_per_s"]) * 1e3
        b, n = (statistics.median(t[f"best {shape}"]) * 1e3 for t in (base, new))
        cublas = statistics.median(base[f"cublas {shape}"] + new[f"cublas {shape}"]) * 1e3
        spread = max(base[f"best {shape}"]) / min(base[f"best {shape}"])
        sb, sn = (statistics.median(t[f"skinny {shape}"]) * 1e3 for t in (base, new))
        print(f"| {shape} | {floor:.1f} | {cublas:.1f} | {b:.1f} ({100 * floor / b:.0f}%) | "
              f"{n:.1f} ({100 * floor / n:.0f}%) | {b / n:.3f} | {spread:.3f} | {sb:.1f} -> {sn:.1f} |")


if __name__ == "__main__":
    main()
