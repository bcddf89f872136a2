"""Why a freed page-locked result block is not taken again under compute-sanitizer (GPU needed): the host-path
test's steps, printing the pool and the returned blocks at each one.

    compute-sanitizer --tool memcheck python3 host_block_reuse.py
"""
import gc

import numpy as np

import matmul_opt
from matmul_opt import results


def state(label):
    print(f"{label}: returned {len(results._returned)}, pool {dict((k, len(v)) for k, v in results._pool.items())}, "
          f"locked {len(results._locked)}", flush=True)


rng = np.random.default_rng(0)
gc.collect()
matmul_opt.release_memory()
A = rng.uniform(-1, 1, (1030, 300)).astype(np.float32)
B = rng.uniform(-1, 1, (300, 1100)).astype(np.float32)
kept = [matmul_opt.run("best", A, B) for _ in range(3)]
addresses = {C.__array_interface__["data"][0] for C in kept}
state("three kept")
del kept
gc.collect()
state("freed")
again = matmul_opt.run("best", A, B)
print("again reuses a freed block:", again.__array_interface__["data"][0] in addresses)
state("after")
