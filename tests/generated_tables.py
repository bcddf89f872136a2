"""The constants of the library's tables as its sources spell them (the tuner's generated best_table.h and
precision_table.h, the dispatchers' own, longk.h's tile side), for GPU tests that predict which kernel a dispatcher
runs and for the tuner's tests that check its copies of them."""
import re
from pathlib import Path

CUDA = Path(__file__).resolve().parent.parent / "cuda"
SOURCES = {name: (CUDA / "kernels" / name).read_text()
           for name in ("precision_table.h", "by_precision.cu", "best_table.h", "longk.h")}
SOURCES["problem.h"] = (CUDA / "core" / "problem.h").read_text()


def constant(name, source="precision_table.h"):
    value = re.search(rf"{name} = ([^;]+);", SOURCES[source]).group(1)
    return {"INFINITY": float("inf"), "INT_MAX": 2**31 - 1}.get(value) or float(value)
