"""The portable runner's orphans, on Linux: the grader as a child subreaper.

A double fork whose middle process exits at once leaves its grandchild to init within a
millisecond, before the tree watch's next look: it setsid()ed, waited for the grader to exit and
rewrote the report (issue 38, red team B). With ``PR_SET_CHILD_SUBREAPER`` such a process comes
to the grader instead, and every look (and every run's end) kills and reaps it.

What the grader started on purpose is never an orphan: every posix_spawn of a run, a sandbox's
first process or a fork server goes through ``spawn``, which names it the grader's own under
the lock the sweep takes (a child seen between the spawn and its naming would be killed).
Children ``subprocess`` starts (a teacher's tools) stay in the grader's session, where no run
is: every portable run leads a session of its own, which its processes cannot leave for the
grader's. macOS has no subreaper: there such a process outlives the run, and the notice says so.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import signal
import sys
import threading
from collections.abc import Callable

from . import procfs

_lock = threading.Lock()
# the children the grader started on purpose (reaped by their runners): pid -> its start time,
# as a pid is another process's once reaped (32768 of them on many machines: soon)
_own: dict[int, int | None] = {}
_adopting: list[bool] = []  # whether this process is a subreaper, once asked
_KILLED_S = 1.0  # how long a killed orphan may take to go before the next sweep reaps it
_ROUNDS = 16  # sweeps in a row: each finds the children the last one's kills left


def spawn(start: Callable[[], int]) -> int:
    """``start()``'s pid, named the grader's own before any sweep can see it."""
    with _lock:
        pid = start()
        if os.path.isdir(procfs.PROC):  # where a sweep may ever look
            _own[pid] = _stat(pid)[1]
        return pid


def reaped(pid: int) -> None:
    """``pid`` was reaped by its runner: its number may be another process's from now on, and
    already a new run's, spawned between the reap and this call (the review's race): only an
    entry whose process is gone is let go, never the new run's, which a sweep would kill."""
    with _lock:
        if pid in _own and _stat(pid)[1] != _own[pid]:
            del _own[pid]


def adopt() -> bool:
    """Make the grader a child subreaper (once; Linux only): whether it is one."""
    if sys.platform != "linux" or not os.path.isdir(procfs.PROC):
        return False
    with _lock:
        if not _adopting:
            from .prctl import PR_SET_CHILD_SUBREAPER, prctl

            # a kernel before 3.4 has no such option
            _adopting.append(prctl(PR_SET_CHILD_SUBREAPER, 1, tolerate=(errno.EINVAL,)))
        return _adopting[0]


def _stat(pid: int) -> tuple[int | None, int | None]:
    """Its session and its start time, from /proc (fields 6 and 22 of proc(5))."""
    try:
        with open(f"{procfs.PROC}/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[3]), int(fields[19])
    except (OSError, ValueError, IndexError):
        return None, None


def sweep() -> list[int]:
    """Kill and reap every orphan the grader holds now (a child it did not start, in a session
    other than its own), and those that killing them leaves it: the pids it ended."""
    ended: list[int] = []
    if not _adopting or not _adopting[0] or not os.path.isdir(procfs.PROC):
        return ended
    ours = os.getsid(0)
    for _ in range(_ROUNDS):
        found: list[int] = []
        with _lock:
            for pid, started in list(_own.items()):
                if _stat(pid)[1] != started:  # reaped: its number is free, or another's now
                    del _own[pid]
            for pid in procfs.children(os.getpid(), procfs.PROC):
                session, started = _stat(pid)
                if session is None or session == ours or (pid in _own and _own[pid] == started):
                    continue
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                found.append(pid)
        if not found:
            break
        for pid in found:
            _reap(pid)
        ended += found
    return ended


def _reap(pid: int) -> None:
    """Reap a killed orphan once it is gone, waiting at most ``_KILLED_S`` (the next sweep
    reaps one that took longer): never another pid, never without a bound."""
    with contextlib.suppress(OSError):
        fd = os.pidfd_open(pid)
        try:
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            poller.poll(int(_KILLED_S * 1000))
        finally:
            os.close(fd)
    with _lock, contextlib.suppress(ChildProcessError, OSError):
        if pid not in _own:  # not a run the grader started since, under the same number
            os.waitpid(pid, os.WNOHANG)
