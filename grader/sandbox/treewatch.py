"""A portable run's processes, looked at while it runs (POSIX; on Windows the Job Object holds
the tree itself).

The portable runner's own limits hold one process each (RLIMIT_DATA on Linux, nothing for
memory on macOS) and its kill reaches the run's process group only: 80 forked children, or a
shared mapping RLIMIT_DATA does not count, passed a 512 MB limit, and a grandchild in a session
of its own outlived the grader (issue 38). So every ``PERIOD_S`` the watch lists the tree below
the run's first process: the memory of all of it is held to the run's limit, its number of
processes to the runner's, and every process seen is remembered, so that the run's end ends
each one still alive, wherever it went since. What it cannot see, it cannot end: a process that
leaves the tree between two looks (a double fork within ``PERIOD_S``) comes to the grader on
Linux (``orphans.py``, a subreaper), and elsewhere is not caught, and the notice says so.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass

from . import procfs

PERIOD_S = 0.02


@dataclass(frozen=True)
class Seen:
    """One process of the tree: its pid, when it started (a pid another process took since is
    not the one seen), and the memory it holds of its own (shared pages split among those that
    share them, where the platform says: Linux's PSS)."""

    pid: int
    started: int
    memory: int
    # the grader may not read its memory: a process of its uid that made itself not dumpable
    # (or exec'd a setuid program) hides its PSS and its descriptors from a grader not root
    hidden: bool = False


Look = Callable[[int], list[Seen]]  # the tree below a pid, as the platform says now


def _started_linux(pid: int, proc: str) -> int | None:
    try:
        with open(f"{proc}/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[19])  # starttime, field 22
    except (OSError, ValueError, IndexError):
        return None


def _memory_linux(pid: int, proc: str) -> int | None:
    """Its PSS; None where the grader may not read it."""
    try:
        with open(f"{proc}/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except PermissionError:
        return None
    except (OSError, ValueError, IndexError):
        pass
    return 0


# Memory files: a memfd's pages, or a tmpfs file's under /dev/shm, written and never mapped are
# in no process's PSS nor under RLIMIT_DATA (1 GiB of memfds passed a 512 MB limit, issue 38,
# red team C): their allocated size counts, once per file, for the first process that holds one
_MEMORY_FILES = ("/memfd:", "/dev/shm/")


def _memory_files(pid: int, proc: str, counted: set[tuple[int, int]]) -> int:
    """The bytes of the memory files ``pid`` holds open that no process before it did."""
    total = 0
    try:
        fds = os.listdir(f"{proc}/{pid}/fd")
    except OSError:
        return 0
    for fd in fds:
        path = f"{proc}/{pid}/fd/{fd}"
        try:
            if not os.readlink(path).startswith(_MEMORY_FILES):
                continue
            st = os.stat(path)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) not in counted:
            counted.add((st.st_dev, st.st_ino))
            total += st.st_blocks * 512
    return total


def look_linux(leader: int, proc: str = procfs.PROC) -> list[Seen]:
    found: list[Seen] = []
    counted: set[tuple[int, int]] = set()
    for pid in procfs.tree(leader, proc):
        started = _started_linux(pid, proc)
        if started is not None:
            own = _memory_linux(pid, proc)
            memory = (own or 0) + _memory_files(pid, proc, counted)
            found.append(Seen(pid, started, memory, hidden=own is None))
    return found


def look_psutil(leader: int) -> list[Seen]:  # macOS: no /proc
    import psutil

    found: list[Seen] = []
    try:
        top = psutil.Process(leader)
        processes = [top, *top.children(recursive=True)]
    except psutil.Error:
        return found
    for one in processes:
        with contextlib.suppress(psutil.Error):
            # USS, the pages only it holds: RSS counts a forked child's shared pages again in
            # every child (70 forks of one interpreter read as 700 MB)
            memory = one.memory_full_info().uss
            found.append(Seen(one.pid, int(one.create_time() * 1000), memory))
    return found


def default_look() -> Look | None:
    """This platform's way to list a tree; None where there is none (no /proc, no psutil)."""
    if os.path.isdir(procfs.PROC):
        return look_linux
    try:
        import psutil  # noqa: F401
    except ImportError:
        return None
    return look_psutil


class TreeWatch:
    """Looks at the tree below ``leader`` every ``PERIOD_S`` until stopped; over ``memory``
    bytes in all or ``processes`` at once, it says which (``over``) and calls ``stop_run``."""

    def __init__(
        self,
        leader: int,
        *,
        memory: int,
        processes: int,
        stop_run: Callable[[], None],
        look: Look,
    ) -> None:
        self.leader, self.memory, self.processes = leader, memory, processes
        self.over: str | None = None  # "memory" or "processes"
        self.hidden = False  # "memory" because a process hid its memory from the grader
        self.peak: int | None = None  # the most memory the tree held at one look, in bytes
        self._stop_run, self._look = stop_run, look
        self._seen: dict[int, int] = {}  # pid -> its start time
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._watch, daemon=True, name="grade-tree")

    def start(self) -> TreeWatch:
        self._thread.start()
        return self

    def look_once(self) -> None:
        found = self._look(self.leader)
        with self._lock:
            for one in found:
                self._seen.setdefault(one.pid, one.started)
        held = sum(one.memory for one in found)
        if found and held > (self.peak or 0):
            self.peak = held
        if self.over is not None:
            return
        if len(found) > self.processes:
            self.over = "processes"
        elif held > self.memory:
            self.over = "memory"
        elif any(one.hidden for one in found):
            self.hidden = True  # what it hides from the grader, it is held to none of
            self.over = "memory"
        if self.over is not None:
            self._stop_run()

    def _watch(self) -> None:
        while not self._stopped.wait(PERIOD_S):
            self.look_once()

    def end_all(self) -> None:
        """Stop looking, then kill every process seen that is still the one seen."""
        self._stopped.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join()
        with self._lock:
            seen = dict(self._seen)
        for pid, started in seen.items():
            if pid == self.leader:
                continue  # the runner's own: reaped by it, its pid maybe someone's already
            now = [one for one in self._look(pid)[:1] if one.pid == pid]
            if now and now[0].started == started:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
