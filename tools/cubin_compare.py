"""Compares the machine code of two sets of cubins, kernel by kernel, with nothing but Python (no GPU, no cuobjdump):
for refactors that must leave the machine code unchanged, on a machine whose CUDA toolkit has nvcc alone.

    python3 -m tools.cubin_compare OLD NEW

OLD and NEW are cubins, folders of them (*.cubin), or two builds of the library (matmul_opt/libmatmul.so, whose fat
binary holds a cubin per source), made by the same nvcc command before and after the change, for example, per source:
nvcc -O3 -std=c++20 -Icuda -gencode arch=compute_90,code=sm_90 -cubin SOURCE -o DIR/NAME.cubin
(arch=compute_90a,code=sm_90a for the *_sm90a.cu sources). Line tables move with the source, but they are not kernel
code, so -lineinfo builds compare too. Each kernel's code is its ELF section .text.<kernel>; kernels are matched by
the bytes of that section, not by their names, so code that moved to another file, namespace or template keeps its
match. A cubin that nvcc compressed in the fat binary (it does so for a large one, with zstd) is read per kernel
where the zstd command decompresses it; elsewhere it counts as one entry, compared whole by its compressed bytes,
which can differ where no kernel does (two builds of skinny.cu that differ in host code alone gave cubins 6 bytes
apart, none of them in a kernel's code). Prints the count of kernels whose code is identical and names the kernels of
either side whose code the other lacks, each with its count of instructions (the code's length over the 16 bytes of
an sm_90 instruction: a static count, every path once). Exit status 0 when the two sides hold the same code, 1
otherwise.
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import shutil
import struct
import subprocess
import sys
from pathlib import Path


def sections(data: bytes, what) -> dict[str, bytes]:
    """{section name: its bytes} of an ELF64 image (a cubin, or the library that holds them)."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise ValueError(f"{what} is not a 64-bit ELF file (a cubin or the library)")
    section_offset, = struct.unpack_from("<Q", data, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", data, 0x3A)
    # Section header fields: name, type, flags, address, offset, size, ...
    headers = [struct.unpack_from("<IIQQQQ", data, section_offset + i * entry_size) for i in range(count)]
    names_offset, names_size = headers[names_index][4], headers[names_index][5]
    names = data[names_offset:names_offset + names_size]
    return {names[name_at:names.index(b"\0", name_at)].decode(): data[offset:offset + size]
            for name_at, _, _, _, offset, size in headers}


def kernel_code(data: bytes, what) -> dict[str, bytes]:
    """{kernel name: its machine code} of one cubin."""
    return {name[len(".text."):]: code for name, code in sections(data, what).items() if name.startswith(".text.")}


FATBIN_MAGIC, CUBIN_ENTRY = 0xBA55ED50, 2
INSTRUCTION_BYTES = 16  # sm_70 and later


def fat_binary_cubins(fatbin: bytes) -> list[bytes]:
    """The cubins of a fat binary (a library's .nv_fatbin section): containers (magic, version, header size, payload
    size) at 8-byte steps, each a run of entries (kind, header size, payload size), the cubins of kind 2, compressed
    ones included."""
    cubins, at = [], 0
    while at + 16 <= len(fatbin):
        magic, _, header, size = struct.unpack_from("<IHHQ", fatbin, at)
        if magic != FATBIN_MAGIC:
            at += 8
            continue
        entry, end = at + header, at + header + size
        while entry < end:
            kind, _, entry_header, entry_size = struct.unpack_from("<HHIQ", fatbin, entry)
            if kind == CUBIN_ENTRY:
                cubins.append(fatbin[entry + entry_header:entry + entry_header + entry_size])
            entry += entry_header + entry_size
        at = end
    return cubins


ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
FATBIN_PADDING = 8  # an entry's payload is padded with zeros to a multiple of 8 bytes


def decompressed(data: bytes) -> bytes | None:
    """The ELF image of a zstd-compressed cubin, by the zstd command; None where it is not one or the command is
    missing. The payload's padding is not part of the frame: the zeros at its end are tried off one by one."""
    if data[:4] != ZSTD_MAGIC or shutil.which("zstd") is None:
        return None
    for padding in range(FATBIN_PADDING):
        if padding and data[-padding] != 0:
            break
        frame = data[:len(data) - padding]
        result = subprocess.run(["zstd", "-d", "-c", "-q"], input=frame, capture_output=True, timeout=300)
        if result.returncode == 0 and result.stdout[:4] == b"\x7fELF":
            return result.stdout
    return None


def collect(path: Path) -> dict[str, bytes]:
    if path.is_dir():
        images = [(cubin.read_bytes(), cubin) for cubin in sorted(path.glob("*.cubin"))]
    else:
        data = path.read_bytes()
        fatbin = sections(data, path).get(".nv_fatbin")
        images = [(cubin, path) for cubin in fat_binary_cubins(fatbin)] if fatbin is not None else [(data, path)]
    if not images:
        raise ValueError(f"no cubins in {path}")
    code = {}
    for index, (data, what) in enumerate(images):
        image = data if data[:4] == b"\x7fELF" else decompressed(data)
        if image is not None:
            code.update(kernel_code(image, what))
        else:
            code[f"(compressed cubin {index} of {what})"] = data
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
                size = "" if name.startswith("(compressed") else f" ({len(code) // INSTRUCTION_BYTES} instructions)"
                print(f"  only {side}: {name}{size}")
    return 0 if digest["old"] == digest["new"] else 1


if __name__ == "__main__":
    sys.exit(main())
