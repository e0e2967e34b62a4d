"""A control group per run, where the grader may make one (root): a cap on its tasks.

RLIMIT_NPROC does not bind a run whose uid outside its namespace is root (the kernel exempts
the initial user), and without namespaces it would count every process of the user; ``pids.max``
counts the run's tasks, threads included, whatever its uid. cgroup v2 where the pids controller
is enabled at the root, else v1's pids hierarchy; none for an ordinary user (no delegation).
"""

from __future__ import annotations

import contextlib
import itertools
import os

_V1 = "/sys/fs/cgroup/pids"
_V2 = "/sys/fs/cgroup"
_counter = itertools.count()


def _parent() -> str | None:
    if os.geteuid() != 0:
        return None
    with contextlib.suppress(OSError), open(os.path.join(_V2, "cgroup.subtree_control")) as f:
        if "pids" in f.read().split():
            return _V2
    if os.path.isfile(os.path.join(_V1, "cgroup.procs")):
        return _V1
    return None


def create(tasks: int) -> str | None:
    """A new group allowing ``tasks`` tasks; its folder, or None where none can be made."""
    parent = _parent()
    if parent is None:
        return None
    folder = os.path.join(parent, f"grade-{os.getpid()}-{next(_counter)}")
    try:
        os.mkdir(folder)
        with open(os.path.join(folder, "pids.max"), "w") as f:
            f.write(str(tasks))
    except OSError:
        remove(folder)
        return None
    return folder


def cpu_seconds(folder: str) -> float | None:
    """CPU time the group's tasks used, killed ones included (cgroup v2's cpu.stat); None
    where it is not kept (v1)."""
    with contextlib.suppress(OSError, ValueError), open(os.path.join(folder, "cpu.stat")) as f:
        for line in f:
            key, value = line.split()
            if key == "usage_usec":
                return int(value) / 1e6
    return None


def remove(folder: str) -> None:
    """Remove the group once its tasks are gone (they are: the run was waited for)."""
    with contextlib.suppress(OSError):
        os.rmdir(folder)
