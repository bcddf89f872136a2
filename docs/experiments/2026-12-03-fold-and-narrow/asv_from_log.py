"""Rebuilds an asv result file from the table that `asv run` printed (call 4's log), for a run whose result file
was lost in transfer from the GPU machine: the values are asv's, with the precision it printed (repr of the float);
metadata (environment, benchmark versions) come from an earlier result file of the same machine and the same
benchmarks.json, the machine's description from MACHINE.json (what `python3 -m benchmarks.machine` printed in the same call), the commit and its date from git, the start from the
argument (the run's, in ms since the epoch). Every track and shape of the template must be in the
log.

    python3 docs/experiments/2026-12-03-fold-and-narrow/asv_from_log.py LOG MACHINE.json TEMPLATE.json COMMIT STARTED_MS OUT.json
"""
import itertools
import json
import math
import re
import subprocess
import sys


def tables(log: str) -> dict[str, dict[tuple[str, str], float]]:
    """{benchmark: {(kernel, shape): value}} from the log's printed tables."""
    out, current = {}, None
    for line in log.splitlines():
        m = re.search(r"··· (\S+\.track_\w+)\s+ok$", line)
        if m:
            current = out.setdefault(m.group(1), {})
            continue
        fields = line.split()
        if current is not None and len(fields) == 3 and not line.lstrip().startswith(("=", "-", "[")):
            kernel, shape, value = fields
            if kernel == "kernel":
                continue
            current[(kernel, shape)] = math.nan if value == "n/a" else float(value)
    return out


def main() -> int:
    log_path, machine_path, template_path, commit, started_ms, out_path = sys.argv[1:7]
    values = tables(open(log_path).read())
    result = json.load(open(template_path))
    commit = subprocess.check_output(["git", "rev-parse", commit], text=True).strip()
    commit_s = int(subprocess.check_output(["git", "show", "-s", "--format=%ct", commit], text=True))
    result["commit_hash"], result["date"] = commit, 1000 * commit_s
    machine = json.load(open(machine_path))
    result["params"].update({k: v for k, v in machine.items() if k in result["params"]})
    result["durations"] = {}
    for name, entry in result["results"].items():
        params = entry[1]
        column = [values[name][tuple(p.strip("'") for p in combo)] for combo in itertools.product(*params)]
        result["results"][name] = [column, params, entry[2], int(started_ms), math.nan]
    json.dump(result, open(out_path, "w"), allow_nan=True)
    print(f"{out_path}: {', '.join(f'{n}: {len(e[0])} values' for n, e in result['results'].items())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
