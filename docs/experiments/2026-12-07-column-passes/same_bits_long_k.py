"""The ozaki-pass-lean record's same_bits.py (write OUT / compare DIR_A DIR_B) with one shape more: 3 x 2 x 2100001,
whose operands' residue passes down columns (op_a = T: A's 3 lines; op_b = N: B's 2) take more blocks of k than a
grid's height of 65535 holds, so that each block steps over k."""
import importlib.util
import sys
from pathlib import Path

spec = importlib.util.spec_from_file_location(
    "same_bits", Path(__file__).parent.parent / "2026-12-07-ozaki-pass-lean" / "same_bits.py")
same_bits = importlib.util.module_from_spec(spec)
spec.loader.exec_module(same_bits)
same_bits.SHAPES.append((3, 2, 2100001))

if __name__ == "__main__":
    if sys.argv[1] == "write":
        same_bits.write(Path(sys.argv[2]))
    else:
        sys.exit(same_bits.compare(Path(sys.argv[2]), Path(sys.argv[3])))
