"""Summarises ab.py's JSON files of several libraries run in alternating processes (no GPU needed):

    python3 compare.py LOGS_DIR main new [other ...]

Per (kernel, shape): the median over every round of every process of each library, and each library's ratio to the
first one's (> 1: faster than the first), with the spread of the first library's rounds (max / min); and the roofline
fraction (floor / median) with the HBM read bandwidth that the processes measured (their median).
"""
import glob
import json
import statistics
import sys

from matmul_opt.shape_grid import roofline_ms


def main():
    folder, libraries = sys.argv[1], sys.argv[2:]
    times, hbm, peak = {}, [], []
    for lib in libraries:
        times[lib] = {}
        for path in sorted(glob.glob(f"{folder}/ab-{lib}-*.json")):
            data = json.load(open(path))
            hbm.append(data["hbm_gb_per_s"])
            peak.append(data["peak_gflops"])
            for key, values in data["times"].items():
                times[lib].setdefault(key, []).extend(values)
    hbm_gb_per_s, peak_gflops = statistics.median(hbm), statistics.median(peak)
    print(f"HBM read {hbm_gb_per_s:.0f} GB/s (median of {len(hbm)} processes), FP32 peak {peak_gflops:.0f} GFLOPS")
    base = libraries[0]
    for key in times[base]:
        kernel, shape = key.split()
        M, N, K = (int(x) for x in shape.split("x"))
        floor = roofline_ms(M, N, K, peak_gflops, hbm_gb_per_s)
        rounds = times[base][key]
        cells = [f"{base} {statistics.median(rounds) * 1e3:8.1f} us (spread {max(rounds) / min(rounds):.3f}) "
                 f"{100 * floor / statistics.median(rounds):5.1f}%"]
        for lib in libraries[1:]:
            if key in times[lib]:
                ms = statistics.median(times[lib][key])
                cells.append(f"{lib} {ms * 1e3:8.1f} us {statistics.median(rounds) / ms:5.3f}x {100 * floor / ms:5.1f}%")
        print(f"{kernel:8s} {shape:16s} floor {floor * 1e3:6.1f} | " + " | ".join(cells))


if __name__ == "__main__":
    main()
