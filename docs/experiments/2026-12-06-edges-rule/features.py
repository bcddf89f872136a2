"""Reads this record's logs: for every product that best cut, its time with the edges beside the bulk over its time
with them after (sweep.py, calls 2 and 4, their mean), and the features of its launches (launches.py, call 4, edges
after the bulk): the bulk's kernel, blocks, blocks one SM can hold, waves, the bulk's microseconds (its split-K
reduction included) and the edges'. Then the rules tried for where the edges should wait, each against the per-product
oracle (the faster of the two for every product): the geometric mean of chosen / fastest and the worst product.

    python3 features.py
"""
import collections
import math
import pathlib
import re

HERE = pathlib.Path(__file__).parent / "logs"
SMS = 132
LAUNCH = re.compile(r"(\S+) beside=(\d) stream=\d+ start=\S+ us=([\d.]+) grid=\[(\d+), (\d+), (\d+)\] "
                    r"block=\[(\d+), 1, 1\] regs=(\d+) smem=(\d+) per_sm=\S+ (.*)")


def sweep(path):
    ratios = {}
    for line in path.read_text().splitlines():
        fields = line.split()
        if len(fields) == 5 and fields[1] == "yes":
            ratios[fields[0]] = float(fields[3]) / float(fields[2])
    return ratios


def blocks_per_sm(kernel):
    """Blocks of this launch that one SM holds: registers (allocated per warp in units of 256), shared memory (228 KiB
    with 1 KiB reserved per block) and 64 warps. An estimate from the launch's figures, not the occupancy API."""
    warps = kernel["threads"] // 32
    by_registers = 65536 // (math.ceil(kernel["regs"] * 32 / 256) * 256 * warps)
    by_shared = 233472 // (kernel["smem"] + 1024) if kernel["smem"] else 64
    return min(by_registers, by_shared, 64 // warps)


def products():
    first, second = sweep(HERE / "call2" / "sweep.txt"), sweep(HERE / "call4" / "sweep.txt")
    launches = collections.defaultdict(list)
    for line in (HERE / "call4" / "launches.txt").read_text().splitlines():
        match = LAUNCH.match(line)
        if match and match[2] == "0":
            launches[match[1]].append(dict(us=float(match[3]), blocks=int(match[4]) * int(match[5]) * int(match[6]),
                                           threads=int(match[7]), regs=int(match[8]), smem=int(match[9]),
                                           name=match[10]))
    for shape, kernels in launches.items():
        start = next(i for i, k in enumerate(kernels) if not any(s in k["name"] for s in ("skinny", "reduce", "emset")))
        bulk = kernels[start]
        reduce_us = kernels[start + 1]["us"] if "reduce" in kernels[start + 1]["name"] else 0
        rest = kernels[start + 1:]
        kind = next((k for k in ("streamk", "tma", "cp_async") if k in bulk["name"]), bulk["name"][:20])
        per_sm = blocks_per_sm(bulk)
        yield dict(shape=shape, K=int(shape.split("x")[2]), ratio=(first[shape] + second[shape]) / 2,
                   ratios=(first[shape], second[shape]), kind=kind, blocks=bulk["blocks"], per_sm=per_sm,
                   waves=bulk["blocks"] / (per_sm * SMS), bulk_us=bulk["us"] + reduce_us,
                   edges_us=sum(k["us"] for k in rest) - reduce_us)


def evaluate(rows, name, beside):
    logs, worst, worst_shape, count = 0.0, 1.0, "", 0
    for row in rows:
        chosen = row["ratio"] if beside(row) else 1.0
        excess = chosen / min(row["ratio"], 1.0)
        logs += math.log(excess)
        count += beside(row)
        if excess > worst:
            worst, worst_shape = excess, row["shape"]
    print(f"{name:44} beside {count:3}  geomean / oracle {math.exp(logs / len(rows)):.4f}  "
          f"worst {worst:.3f} ({worst_shape})")


def main():
    rows = sorted(products(), key=lambda row: row["ratio"])
    print("beside/after (call 2, call 4)  product  bulk kernel  blocks  per SM  waves  bulk us  edges us")
    for r in rows:
        print(f"{r['ratio']:.3f} ({r['ratios'][0]:.3f}, {r['ratios'][1]:.3f})  {r['shape']}  {r['kind']}  "
              f"{r['blocks']}  {r['per_sm']}  {r['waves']:.2f}  {r['bulk_us']:.1f}  {r['edges_us']:.1f}")
    print()
    evaluate(rows, "always beside (main)", lambda r: True)
    evaluate(rows, "always after", lambda r: False)
    for limit in (15, 20, 25, 30, 40):
        evaluate(rows, f"beside where the edges take <= {limit} us alone", lambda r, t=limit: r["edges_us"] <= t)
    for share in (0.1, 0.2, 0.3):
        evaluate(rows, f"beside where edges / bulk >= {share}", lambda r, s=share: r["edges_us"] / r["bulk_us"] >= s)
    evaluate(rows, "beside where K <= 2000", lambda r: r["K"] <= 2000)
    evaluate(rows, "beside where the bulk takes <= 250 us", lambda r: r["bulk_us"] <= 250)
    evaluate(rows, "beside where no edge block fits beside a bulk block",
             lambda r: r["per_sm"] == 1 or r["waves"] >= 1)
    evaluate(rows, "beside unless a stream-K bulk (it shares its last wave)", lambda r: r["kind"] != "streamk")


if __name__ == "__main__":
    main()
