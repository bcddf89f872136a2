"""Compares the machine code of two builds of libmatmul.so, kernel by kernel (no GPU needed, only cuobjdump).

    python3 -m tools.sass_compare OLD.so NEW.so [--show NAME-REGEX]

Kernels are matched by their code, not their names, so a refactor that renames namespaces or template
arguments still finds its counterparts. For each kernel of NEW it prints one of:
  identical    the same instruction words, control bits (stalls, barriers, reuse flags) included
  same text    the same instructions in the same order, different control bits
  differs      no kernel of OLD has this code; the closest one (by opcode counts) is named with the
               instruction counts that differ
and then the kernels of OLD that NEW lacks. Exit status 0 when every kernel of NEW is identical to one of OLD
and none is missing, 1 otherwise. cuobjdump is taken from $CUOBJDUMP, then PATH, then /usr/local/cuda/bin.
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys

INSTRUCTION = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;\s*/\* (0x[0-9a-f]{16}) \*/")
CONTROL = re.compile(r"^\s+/\* (0x[0-9a-f]{16}) \*/\s*$")


def cuobjdump() -> str:
    found = os.environ.get("CUOBJDUMP") or shutil.which("cuobjdump") or "/usr/local/cuda/bin/cuobjdump"
    if not os.path.exists(found):
        sys.exit("cuobjdump not found: set CUOBJDUMP or add the CUDA toolkit's bin/ to PATH")
    return found


class Kernel:
    def __init__(self, name: str):
        self.name = name
        self.text: list[str] = []  # instructions without addresses
        self.words: list[str] = []  # both 64-bit words of every instruction

    @property
    def opcodes(self) -> collections.Counter:
        return collections.Counter(line.split()[0] if not line.startswith("@") else line.split()[1]
                                   for line in self.text)


def kernels(library: str) -> dict[str, Kernel]:
    dump = subprocess.run([cuobjdump(), "-sass", library], capture_output=True, text=True, check=True).stdout
    found: dict[str, Kernel] = {}
    current = None
    for line in dump.splitlines():
        if "Function : " in line:
            current = Kernel(line.split("Function : ", 1)[1].strip())
            found[current.name] = current
        elif current is not None:
            match = INSTRUCTION.search(line)
            if match:
                current.text.append(re.sub(r"\s+", " ", match.group(1)))
                current.words.append(match.group(2))
            elif CONTROL.match(line):
                current.words.append(CONTROL.match(line).group(1))
    return found


def short(name: str) -> str:
    demangled = subprocess.run(["c++filt", name], capture_output=True, text=True).stdout.strip() or name
    demangled = re.sub(r"\(anonymous namespace\)::", "", demangled)
    return demangled if len(demangled) <= 150 else demangled[:147] + "..."


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tools.sass_compare", description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--show", help="print the instruction diff of NEW kernels whose name matches this regex")
    args = parser.parse_args(argv)
    old, new = kernels(args.old), kernels(args.new)
    by_words = {tuple(k.words): k for k in old.values()}
    by_text = {tuple(k.text): k for k in old.values()}
    matched: set[str] = set()
    clean = True
    for kernel in sorted(new.values(), key=lambda k: short(k.name)):
        twin = by_words.get(tuple(kernel.words))
        if twin is not None:
            matched.add(twin.name)
            print(f"identical  {short(kernel.name)}\n           = {short(twin.name)}")
            continue
        clean = False
        twin = by_text.get(tuple(kernel.text))
        if twin is not None:
            matched.add(twin.name)
            print(f"same text  {short(kernel.name)}\n           = {short(twin.name)} (control bits differ)")
            continue
        counts = kernel.opcodes
        closest = min(old.values(), key=lambda k: sum(((k.opcodes - counts) + (counts - k.opcodes)).values()))
        matched.add(closest.name)
        delta = {op: counts[op] - closest.opcodes[op] for op in set(counts) | set(closest.opcodes)
                 if counts[op] != closest.opcodes[op]}
        print(f"differs    {short(kernel.name)} ({len(kernel.text)} instructions)\n"
              f"           ~ {short(closest.name)} ({len(closest.text)}): "
              + ", ".join(f"{op} {d:+d}" for op, d in sorted(delta.items(), key=lambda item: -abs(item[1]))[:12]))
        if args.show and re.search(args.show, kernel.name):
            import difflib

            for line in difflib.unified_diff(closest.text, kernel.text, "old", "new", lineterm="", n=2):
                print("           " + line)
    for name in sorted(set(old) - matched):
        clean = False
        print(f"missing    {short(name)}")
    print(f"{len(new)} kernels in {args.new}, {len(old)} in {args.old}: "
          + ("every kernel identical" if clean else "differences above"))
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
