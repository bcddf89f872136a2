"""Compares the machine code of two sets of cubins, kernel by kernel, with nothing but Python (no GPU, no cuobjdump):
for refactors that must leave the machine code unchanged, on a machine whose CUDA toolkit has nvcc alone.

    python3 -m tools.cubin_compare OLD NEW

OLD and NEW are cubins or folders of them (*.cubin), made by the same nvcc command before and after the change, for
example, per source: nvcc -O3 -std=c++20 -Icuda -gencode arch=compute_90,code=sm_90 -cubin SOURCE -o DIR/NAME.cubin
(arch=compute_90a,code=sm_90a for the *_sm90a.cu sources; leave -lineinfo out, since line tables move with the
source). Each kernel's code is its ELF section .text.<kernel>; kernels are matched by the bytes of that section, not
by their names, so code that moved to another file, namespace or template keeps its match. Prints the count of
kernels whose code is identical and names the kernels of either side whose code the other lacks. Exit status 0 when
the two sides hold the same code, 1 otherwise.
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import struct
import sys
from pathlib import Path


def kernel_code(cubin: Path) -> dict[str, bytes]:
    """{kernel name: its machine code} of one cubin (an ELF64 file)."""
    data = cubin.read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise ValueError(f"{cubin} is not a 64-bit ELF file (a cubin)")
    section_offset, = struct.unpack_from("<Q", data, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", data, 0x3A)
    # Section header fields: name, type, flags, address, offset, size, ...
    headers = [struct.unpack_from("<IIQQQQ", data, section_offset + i * entry_size) for i in range(count)]
    names_offset, names_size = headers[names_index][4], headers[names_index][5]
    names = data[names_offset:names_offset + names_size]
    code = {}
    for name_at, _, _, _, offset, size in headers:
        name = names[name_at:names.index(b"\0", name_at)].decode()
        if name.startswith(".text."):
            code[name[len(".text."):]] = data[offset:offset + size]
    return code


def collect(path: Path) -> dict[str, bytes]:
    cubins = sorted(path.glob("*.cubin")) if path.is_dir() else [path]
    if not cubins:
        raise ValueError(f"no cubins in {path}")
    code = {}
    for cubin in cubins:
        code.update(kernel_code(cubin))
    return code


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tools.cubin_compare", description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    args = parser.parse_args(argv)
    old, new = collect(args.old), collect(args.new)
    digest = {side: collections.Counter(hashlib.sha256(code).hexdigest() for code in kernels.values())
              for side, kernels in (("old", old), ("new", new))}
    same = sum((digest["old"] & digest["new"]).values())
    print(f"{len(old)} kernels before, {len(new)} after; identical machine code: {same}")
    for side, kernels, other in (("before", old, digest["new"]), ("after", new, digest["old"])):
        for name, code in sorted(kernels.items()):
            if other[hashlib.sha256(code).hexdigest()] == 0:
                print(f"  only {side}: {name}")
    return 0 if digest["old"] == digest["new"] else 1


if __name__ == "__main__":
    sys.exit(main())
