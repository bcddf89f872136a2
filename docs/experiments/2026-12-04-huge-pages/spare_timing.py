"""Where a kept result's call spends its time (GPU needed): a pattern of benchmarks/host_patterns.py with the result
module's steps timed call by call.

    python3 spare_timing.py PATTERN N [--calls 8] [--torch]

Prints one JSON line per call: the call's wall-clock ms; the ms spent in results.result_array and, inside it, in
locking pages, in making new blocks (allocation and the huge-page mark) and in handing mappings to the threads;
which way the block came (pool, spare, new); and the page mappings that ran in background threads
during the call (their count and the ms they overlapped it), and how long before the call the taken spare's
mappings had finished (negative: still running when the call took it).
"""
import argparse
import json
import sys
import threading
import time


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("pattern")
    parser.add_argument("n", type=int)
    parser.add_argument("--calls", type=int, default=8)
    parser.add_argument("--torch", action="store_true")
    args = parser.parse_args()
    if args.torch:
        import torch  # noqa: F401
    import matmul_opt
    from benchmarks import host_patterns
    from matmul_opt import results

    now = time.perf_counter
    mappings = []  # (block address range start, start time, end time)
    guard = threading.Lock()
    results._madvise_call()
    madvise = results._madvise
    if madvise:
        def timed_madvise(start, length, advice):
            t0 = now()
            rc = madvise(start, length, advice)
            if advice == results._MADV_POPULATE_WRITE:
                with guard:
                    mappings.append((start, t0, now()))
            return rc
        results._madvise = timed_madvise

    events = {}
    lock_pages, result_array, new_block = results._lock_pages, results.result_array, results._new_block

    def add(name, t0):
        events[name] = events.get(name, 0.0) + (now() - t0) * 1e3

    def timed_new_block(size):
        t0 = now()
        block = new_block(size)
        add("new_block_ms", t0)
        return block

    class TimedWorkers:
        def __init__(self, workers):
            self.workers = workers

        def submit(self, *a):
            t0 = now()
            future = self.workers.submit(*a)
            add("submit_ms", t0)
            return future

    if results._workers is not None:
        results._workers = TimedWorkers(results._workers)
    results._new_block = timed_new_block

    def timed_lock(block):
        t0 = now()
        lock_pages(block)
        add("lock_ms", t0)

    def timed_result_array(shape):
        t0 = now()
        spare = results._spare
        pooled = sum(len(b) for b in results._pool.values()) + len(results._returned)
        out = result_array(shape)
        events["result_array_ms"] = (now() - t0) * 1e3
        taken = spare is not None and results._spare is not spare
        events["way"] = "spare" if taken else ("pool?" if pooled else "new")
        if taken:
            lo, hi = spare.ctypes.data, spare.ctypes.data + spare.nbytes
            ends = [e for s, _, e in mappings if lo <= s < hi]
            events["spare_mapped_ms_before"] = (t0 - max(ends)) * 1e3 if ends else None
        return out

    results._lock_pages = timed_lock
    results.result_array = timed_result_array  # the host path calls it through the module
    calls = []
    original = matmul_opt.run

    def timed_run(*a, **k):
        events.clear()
        t0 = now()
        out = original(*a, **k)
        t1 = now()
        with guard:
            overlap = [(max(s, t0), min(e, t1)) for _, s, e in mappings if e > t0 and s < t1]
        calls.append(dict(events, call_ms=(t1 - t0) * 1e3, mappings_during=len(overlap),
                          mapping_ms_during=sum(e - s for s, e in overlap) * 1e3))
        return out

    matmul_opt.run = timed_run
    host_patterns.call_ms(args.pattern, args.n, args.calls)
    for i, c in enumerate(calls):
        print(json.dumps({"call": i + 1, **{k: round(v, 3) if isinstance(v, float) else v for k, v in c.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
