"""A control group per fork server or fresh run, where the grader may make one (root): a cap on
its tasks, and a list of them to kill when the run is over.

RLIMIT_NPROC does not bind a run whose uid outside its namespace is root (the kernel exempts
the initial user), and without namespaces it would count every process of the user; ``pids.max``
counts the run's tasks, threads included, whatever its uid. cgroup v2 where the pids controller
is enabled at the root, else v1's pids hierarchy; none for an ordinary user (no delegation).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import select
import signal
import time

_V1 = "/sys/fs/cgroup/pids"
_V2 = "/sys/fs/cgroup"
_counter = itertools.count()


def parent() -> str | None:
    """Where the grader makes its groups, or None where it cannot."""
    if os.geteuid() != 0:
        return None
    with contextlib.suppress(OSError), open(os.path.join(_V2, "cgroup.subtree_control")) as f:
        if "pids" in f.read().split():
            return _V2
    if os.path.isfile(os.path.join(_V1, "cgroup.procs")):
        return _V1
    return None


_STALE_S = 60.0  # an empty group this old is a killed grader's: its own fill within ms


def remove_stale(parent: str) -> None:
    """Remove the empty groups that graders killed before they could (SIGKILL, a lost CI job)
    left behind; a group in use is never empty, so rmdir refuses it."""
    now = time.time()
    with contextlib.suppress(OSError):
        for entry in os.scandir(parent):
            if entry.name.startswith("grade-") and entry.is_dir(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    if now - entry.stat().st_mtime > _STALE_S and not members(entry.path):
                        os.rmdir(entry.path)


@functools.cache
def _remove_stale_once(parent: str) -> None:
    remove_stale(parent)


def create(tasks: int | None) -> str | None:
    """A new group allowing ``tasks`` tasks (None: any number); its folder, or None where none
    can be made."""
    where = parent()
    if where is None:
        return None
    _remove_stale_once(where)
    # unique, not just this process's: a grader of the same pid in another container may
    # share the hierarchy, and a group this grader did not make is never touched
    folder = os.path.join(where, f"grade-{os.getpid()}-{next(_counter)}-{os.urandom(4).hex()}")
    try:
        os.mkdir(folder)
    except OSError:
        return None
    if not limit(folder, tasks):
        remove(folder)
        return None
    return folder


def attach(folder: str, pid: int) -> bool:
    """Move ``pid`` into the group; False if the kernel refuses. Costly: the kernel waits for an
    RCU grace period (~9 ms here) and holds up every fork meanwhile."""
    try:
        with open(os.path.join(folder, "cgroup.procs"), "w") as f:
            f.write(str(pid))
    except OSError:
        return False
    return True


def limit(folder: str, tasks: int | None) -> bool:
    """Allow the group ``tasks`` tasks (threads included), or any number for None; False if
    the kernel refused."""
    try:
        with open(os.path.join(folder, "pids.max"), "w") as f:
            f.write("max" if tasks is None else str(tasks))
    except OSError:
        return False
    return True


def current(folder: str) -> int | None:
    """How many tasks the group counts now (exited ones not yet reaped included)."""
    try:
        with open(os.path.join(folder, "pids.current")) as f:
            return int(f.read())
    except (OSError, ValueError):
        return None


def members(folder: str) -> list[int]:
    """The processes in the group now."""
    try:
        with open(os.path.join(folder, "cgroup.procs")) as f:
            return [int(line) for line in f if line.strip()]
    except (OSError, ValueError):
        return []


def kill(folder: str, *, spare: int | None = None, wait_s: float = 5.0) -> None:
    """SIGKILL every process of the group but ``spare``, and wait (at most ``wait_s``) until
    they have exited: what a run left behind where no PID namespace ended with it."""
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        left = [pid for pid in members(folder) if pid != spare]
        if not left:
            return
        poller = select.poll()
        opened: list[int] = []
        try:
            for pid in left:
                fd = _pidfd_in(folder, pid)
                if fd is None:
                    continue
                opened.append(fd)
                with contextlib.suppress(OSError):
                    signal.pidfd_send_signal(fd, signal.SIGKILL)
                poller.register(fd, select.POLLIN)  # readable once it has exited
            if not opened:  # no pidfds here (kernel < 5.3): plain signals, then look again
                for pid in left:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                time.sleep(0.01)
            waiting = set(opened)
            while waiting and time.monotonic() < deadline:
                for fd, _event in poller.poll(max(1, int((deadline - time.monotonic()) * 1000))):
                    poller.unregister(fd)
                    waiting.discard(fd)
        finally:
            for fd in opened:
                os.close(fd)


def _pidfd_in(folder: str, pid: int) -> int | None:
    """A pidfd of ``pid`` if it is still a member of the group: the pid read from cgroup.procs
    may have been reused since, and the pidfd pins the process it names."""
    try:
        fd = os.pidfd_open(pid)
    except OSError:
        return None
    try:
        with open(f"/proc/{pid}/cgroup") as f:
            if f"/{os.path.basename(folder)}\n" in f.read():
                return fd
    except OSError:
        pass
    os.close(fd)
    return None


def cpu_seconds(folder: str) -> float | None:
    """CPU time the group's tasks used, killed ones included (cgroup v2's cpu.stat); None
    where it is not kept (v1)."""
    with contextlib.suppress(OSError, ValueError), open(os.path.join(folder, "cpu.stat")) as f:
        for line in f:
            key, value = line.split()
            if key == "usage_usec":
                return int(value) / 1e6
    return None


def memory_peak(folder: str) -> int | None:
    """The most memory the group's tasks held at once, in bytes (cgroup v2's memory.peak,
    where the memory controller is enabled for it); None where it is not kept."""
    with contextlib.suppress(OSError, ValueError), open(os.path.join(folder, "memory.peak")) as f:
        return int(f.read())
    return None


def remove(folder: str) -> None:
    """Remove the group, killing what is left in it first."""
    kill(folder)
    with contextlib.suppress(OSError):
        os.rmdir(folder)
