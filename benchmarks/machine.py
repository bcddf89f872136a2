"""Registers this host with asv under the name of its GPU, for the offline asv run (`invoke asv`).

    python -m benchmarks.machine [--machine NAME]      # prints the machine name it registered

asv records no GPU, so the machine is named after the GPU model ('NVIDIA H200' -> 'nvidia-h200') and carries a
`gpu` field (model, compute capability, SMs, memory, CUDA versions) beside what `asv machine --yes` records for
the host (OS, architecture, CPU, cores, RAM). The device is asked in a child process, so this one never
initialises CUDA. Exit status 2 when no GPU can be used and no --machine is given.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def machine_slug(gpu_name: str) -> str:
    """'NVIDIA H200' -> 'nvidia-h200'."""
    return re.sub(r"[^a-z0-9]+", "-", gpu_name.lower()).strip("-") or "unknown-gpu"


def _cuda_version(number: int) -> str:
    return f"{number // 1000}.{number % 1000 // 10}"  # 13000 -> 13.0


def gpu_description() -> dict | None:
    """The GPU's model and versions, or None (with the reason printed) when no GPU can be used."""
    code = (
        "import json, matmul_opt; d = matmul_opt.device_info(); print(json.dumps({'name': d.name, "
        "'cc': '%d%d' % d.compute_capability, 'sms': d.sm_count, 'memory_gib': d.total_memory_bytes / 2**30, "
        "'driver': d.driver_version, 'runtime': d.runtime_version}))"
    )
    probe = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    if probe.returncode != 0:
        lines = probe.stderr.strip().splitlines()
        print(lines[-1] if lines else "device query failed", file=sys.stderr)
        return None
    return json.loads(probe.stdout.strip().splitlines()[-1])


def register(machine: str | None = None) -> str | None:
    """Writes this host's asv machine entry (~/.asv-machine.json) and returns its name."""
    gpu = gpu_description()
    if gpu is None and machine is None:
        return None
    machine = machine or machine_slug(gpu["name"])
    description = (
        f"{gpu['name']}, sm_{gpu['cc']}, {gpu['sms']} SMs, {gpu['memory_gib']:.0f} GiB, "
        f"CUDA driver API {_cuda_version(gpu['driver'])}, runtime {_cuda_version(gpu['runtime'])}" if gpu else "none"
    )
    from asv.machine import Machine  # asv is needed only here

    # The CLI cannot do this in one step: `asv machine --yes --machine NAME --cpu ...` drops every option equal to
    # its default, so machine.json would hold the name alone. Machine.load is what the CLI calls; `asv run
    # --machine NAME` then copies the entry to results/asv/NAME/machine.json.
    fields = dict(Machine.get_defaults(), machine=machine, gpu=description)
    Machine.load(machine_name=machine, **fields)
    print("asv machine:", json.dumps(fields), file=sys.stderr)
    return machine


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.machine", description=__doc__.split("\n\n")[0])
    parser.add_argument("--machine", help="machine name to record (default: the GPU model, e.g. nvidia-h200)")
    args = parser.parse_args(argv)
    machine = register(args.machine)
    if machine is None:
        print("no usable GPU: asv results are named after the GPU model (pass --machine to override)", file=sys.stderr)
        return 2
    print(machine)
    return 0


if __name__ == "__main__":
    sys.exit(main())
