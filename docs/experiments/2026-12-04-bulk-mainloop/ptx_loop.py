"""Counts the PTX instructions of the skinny bulk kernel's tile loop, by straight-line segment (a label or a branch
ends one), for one instantiation: what a warp issues per tile beside its FFMAs (no GPU; nvcc on the path). --entry
names another kernel by the start of its mangled name, in --source.

    python3 ptx_loop.py [--rows 24] [--x K|L] [--y S|K] [--source cuda/kernels/skinny.cu --entry MANGLED_PREFIX]
"""
import argparse
import collections
import re
import subprocess
import tempfile


def segments(ptx: str, entry: str):
    body = ptx[ptx.index(".entry " + entry):]
    end = body.find(".entry", 7)  # the next kernel (inline assembly closes braces at column 0 too)
    body = body if end < 0 else body[:end]
    current, name = [], "entry"
    for line in body.splitlines():
        t = line.strip()
        label = re.match(r"^(\$\w+):", t)
        if label:
            yield name, current
            current, name = [], label[1]
            continue
        if not t or t.startswith(("//", ".", "{", "}", ")")) or t.endswith(":"):
            continue
        tokens = t.split()
        current.append(tokens[1] if tokens[0].startswith("@") else tokens[0])
        if "bra" in current[-1]:
            yield name, current
            current, name = [], name + "+"
    yield name, current


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=24)
    parser.add_argument("--x", choices="KL", default="K")
    parser.add_argument("--y", choices="SK", default="S")
    parser.add_argument("--entry", help="the start of another kernel's mangled name")
    parser.add_argument("--source", default="cuda/kernels/skinny.cu")
    args = parser.parse_args()
    with tempfile.NamedTemporaryFile(suffix=".ptx") as f:
        subprocess.run(["nvcc", "-O3", "-std=c++20", "--default-stream", "per-thread", "-Icuda", "-gencode",
                        "arch=compute_90,code=sm_90", "-ptx", args.source, "-o", f.name], check=True)
        ptx = open(f.name).read()
    x, y = {"L": 0, "K": 1}[args.x], {"K": 0, "S": 1}[args.y]
    entry = args.entry or f"_ZN6skinny11skinny_bulkINS_9BulkShapeILNS_5XRowsE{x}ELi{args.rows}ELi6ELi1EEELNS_5YRowsE{y}EEE"
    for name, ops in segments(ptx, entry):
        if ops:
            counts = collections.Counter(ops)
            print(f"{name:16s} {len(ops):4d}  " + ", ".join(f"{op} {n}" for op, n in counts.most_common(8)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
