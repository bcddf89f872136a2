"""The memory matmul_opt keeps between calls for later ones: how much (memory_held) and freeing it (release_memory).

The keys of memory_held(), in bytes (docs/api.md, "Threads and memory the library keeps", gives the bounds):
- "pinned_arrays": empty_pinned's arrays alive. They are the caller's: counted, and freed as they go, not by
  release_memory().
- "pinned_cached": pinned blocks of freed empty_pinned arrays, kept for the next array of their size class.
- "pinned_staging": the pinned staging slots of the host path's streams that no call holds.
- "device_pooled": device memory of the library's pools that no allocation uses.
- one key per register() call of a module that keeps memory of its own (the pool of result blocks, for one).
"""
from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable

from . import pinned
from ._library import HeldMemoryStruct, check, loaded_library

LIBRARY_KEYS = ("pinned_cached", "pinned_staging", "device_pooled")  # mm_memory_held's fields
_OWN_KEYS = ("pinned_arrays",) + LIBRARY_KEYS

_lock = threading.Lock()
_registered: dict[str, tuple[Callable[[], int], Callable[[], None]]] = {}  # name: (held, release), in order


def register(name: str, held: Callable[[], int], release: Callable[[], None]) -> None:
    """Adds `name` to memory_held(), whose value held() gives, and release() to what release_memory() calls: for a
    module that keeps memory between calls. Registering a name again replaces its functions."""
    if name in _OWN_KEYS:
        raise ValueError(f"{name!r} is one of memory_held()'s own keys: {', '.join(_OWN_KEYS)}")
    with _lock:
        _registered[name] = (held, release)


def memory_held() -> dict[str, int]:
    """The bytes matmul_opt keeps between calls, by key (the module's docstring says what each counts); a snapshot,
    as other threads' calls may change it meanwhile.

    Needs no GPU and starts no CUDA: before a call has loaded libmatmul.so the library's keys are 0 (it holds
    nothing yet), and the library answers without a GPU too (0 where no GPU was used)."""
    held = {"pinned_arrays": pinned.held_bytes()}
    counts = HeldMemoryStruct()
    lib = loaded_library()
    if lib is not None:
        check(lib.mm_memory_held(ctypes.byref(counts)))
    held.update((key, getattr(counts, key)) for key in LIBRARY_KEYS)
    with _lock:
        registered = list(_registered.items())
    held.update((name, int(held_bytes())) for name, (held_bytes, _) in registered)
    return held


def release_memory() -> None:
    """Frees the memory memory_held() counts, but for the pinned arrays alive: first the registered modules' (their
    release functions, in the order they were registered), then the library's (mm_release_memory), so that pinned
    blocks a module gives back to the library are freed too. For the device memory the library waits for all the
    work on the GPUs where it has pools, other threads' included; calls in progress keep what they use, and later
    calls allocate (and pin) their memory anew.

    Every release runs even when one raises; the first exception is raised at the end. Needs no GPU, and does
    nothing in the library before a call has loaded it."""
    with _lock:
        releases = [release for _, release in _registered.values()]
    failures = []
    for release in releases:
        try:
            release()
        except Exception as exc:  # the other releases still run; this one is raised below
            failures.append(exc)
    lib = loaded_library()
    status = lib.mm_release_memory() if lib is not None else 0
    if failures:
        raise failures[0]
    check(status)
