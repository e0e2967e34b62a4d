"""How many CPUs this process may use (the default number of runs at once), and the threads
that use them.

``os.cpu_count`` counts the machine's CPUs, not this process's: a CI container limited to two
CPUs on a 64-CPU host, or a job pinned to a few cores, would start 64 runs that starve each
other (and every one of them would be a grader error). The affinity mask and the cgroup v2
``cpu.max`` quota both bound it; the smaller wins.
"""

from __future__ import annotations

import math
import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

_T = TypeVar("_T")
_R = TypeVar("_R")

_CGROUP_ROOT = Path("/sys/fs/cgroup")


def quota_cpus(cpu_max: str) -> int | None:
    """The CPUs a cgroup's ``cpu.max`` ("QUOTA PERIOD", or "max PERIOD") allows, rounded up;
    None where it sets no quota or cannot be read."""
    parts = cpu_max.split()
    if len(parts) != 2 or parts[0] == "max":
        return None
    try:
        quota, period = int(parts[0]), int(parts[1])
    except ValueError:
        return None
    if quota <= 0 or period <= 0:
        return None
    return max(1, math.ceil(quota / period))


def _own_cgroup(proc_self_cgroup: str) -> str | None:
    for line in proc_self_cgroup.splitlines():
        if line.startswith("0::"):  # the v2 hierarchy's line
            return line[3:].strip()
    return None


def _cgroup_cpus(root: Path) -> int | None:
    """The tightest ``cpu.max`` from this process's cgroup up to the root."""
    try:
        own = _own_cgroup(Path("/proc/self/cgroup").read_text())
    except OSError:
        return None
    if own is None:
        return None
    folder = root / own.lstrip("/")
    found: list[int] = []
    while True:
        try:
            cpus = quota_cpus((folder / "cpu.max").read_text())
        except OSError:
            cpus = None
        if cpus is not None:
            found.append(cpus)
        if folder == root or root not in folder.parents:
            break
        folder = folder.parent
    return min(found) if found else None


def usable_cpus(root: Path = _CGROUP_ROOT) -> int:
    """CPUs this process may use: the machine's, less what its affinity and its cgroup's quota
    take away; at least 1."""
    counts = [os.cpu_count() or 1]
    affinity = getattr(os, "sched_getaffinity", None)  # Linux only
    if affinity is not None:
        counts.append(len(affinity(0)))
    quota = _cgroup_cpus(root)
    if quota is not None:
        counts.append(quota)
    return max(1, min(counts))


def _main_thread_takes_signals() -> None:
    # A process-directed signal goes to any thread that does not block it. Were Ctrl-C delivered
    # to a worker (blocked in poll on a run), the main thread, waiting on a lock, would never
    # wake to raise KeyboardInterrupt; blocked here, it can only reach the main thread.
    # (Windows runs every signal handler in the main thread, and has no pthread_sigmask)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})


def worker_pool(workers: int) -> ThreadPoolExecutor:
    """Threads for case-runs and tools; signals stay with the main thread, which handles them."""
    return ThreadPoolExecutor(max_workers=workers, initializer=_main_thread_takes_signals)


def at_once(work: Callable[[_T], _R], items: Sequence[_T]) -> list[_R]:
    """``work`` of each item, in order, on a thread per usable CPU: for the teacher's tools,
    each item a process of its own (one after the other, verify spent 0.35-0.7 s on an
    exercise's 20-40 inputs, and 2.7 s on quantize's clause predicates, with a CPU idle). The
    first failure in order raises; the items not started are not."""
    if len(items) < 2:
        return [work(item) for item in items]
    with worker_pool(min(len(items), usable_cpus())) as pool:
        return list(pool.map(work, items))
