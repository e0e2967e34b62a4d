"""How many CPUs this process may use: the default number of runs at once.

``os.cpu_count`` counts the machine's CPUs, not this process's: a CI container limited to two
CPUs on a 64-CPU host, or a job pinned to a few cores, would start 64 runs that starve each
other (and every one of them would be a grader error). The affinity mask and the cgroup v2
``cpu.max`` quota both bound it; the smaller wins.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

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
