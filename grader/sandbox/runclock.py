"""A started portable run as the grader holds it, and its clock: what it used while it runs
(its CPU time, its wait for a CPU, where the platform says) and how long it may go on, its
clock stretched while a busy machine keeps it from a CPU."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO

from ..judging.timing import deadline_s, portable_waited
from . import procfs

# After its kill, how long a run's first process may take to go before the grader calls it its
# own error
KILLED_S = 60.0


@dataclass
class Started:
    """A started run: how to wait for it, end its tree, and read what it used."""

    wait: Callable[[float], int | None]  # exit status within the timeout, or None
    kill: Callable[[], None]  # the whole tree
    cpu_s: Callable[[], float]
    # while it runs, where the platform says (else None): its CPU time, its wait for a CPU
    usage_now: Callable[[], tuple[float | None, float | None]]
    close: Callable[[], None]
    stdout: IO[bytes]
    stderr: IO[bytes]
    start: float
    cpu_limited: Callable[[int], bool]  # whether this exit status is the CPU limit's doing
    # the limit the tree watch stopped it at ("memory", "processes"), if it did (POSIX)
    over_limit: Callable[[], str | None] = lambda: None
    # whether the watch stopped it because a process hid its memory (not dumpable, not ours)
    hidden: Callable[[], bool] = lambda: False
    # its peak memory in bytes once it has ended, where the platform says (see posixstart)
    peak_bytes: Callable[[], int | None] = lambda: None


def live_usage(pid: int) -> tuple[float | None, float | None]:
    """The CPU time ``pid`` and its children used so far, and the longest one of their threads
    waited, runnable, for a CPU: both from /proc where the kernel says (Linux), else the CPU
    time from psutil (a dependency on macOS, which has no /proc); None where nothing can say."""
    if os.path.isdir(f"{procfs.PROC}/{pid}"):
        cpu, most = procfs.usage(pid)
        return cpu, most if procfs.waits_known() else None
    try:
        import psutil
    except ImportError:
        return None, None
    try:
        leader = psutil.Process(pid)
        total = 0.0
        for one in [leader, *leader.children(recursive=True)]:
            times = one.cpu_times()
            total += times.user + times.system
        return total, None
    except psutil.Error:
        return None, None


def wait_stretched(started: Started, begun: float, limit_s: float) -> tuple[int | None, float]:
    """The run's exit status, or None once it is past its limit of its own time, and how long
    it waited for a CPU: while it computes, however slowly this machine lets it, that wait
    stretches its clock (``timing.portable_waited``, up to ``MOST_STRETCH`` times the limit).
    What it used counts from now, when it is up: the interpreter's start is the machine's,
    and Wine counts that start and next to nothing after it, however a run spins."""
    cpu_at, queued_at = started.usage_now()

    def since(now: float | None, then: float | None) -> float | None:
        return None if now is None or then is None else max(0.0, now - then)

    def waited() -> float:
        cpu, queued = started.usage_now()
        wall = time.monotonic() - begun
        return portable_waited(since(cpu, cpu_at), wall, since(queued, queued_at))

    end = begun + limit_s
    while True:
        status = started.wait(end - time.monotonic())
        if status is not None:
            return status, 0.0
        now = time.monotonic()
        queued = waited()
        later = begun + deadline_s(limit_s, queued)
        if later - now < 0.005:
            return None, queued
        end = later
