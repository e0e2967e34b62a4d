"""What a portable run's clock reads while the run runs (``runclock.live_usage``): its CPU time
and its wait for a CPU from /proc where the kernel says, its CPU time from psutil elsewhere
(macOS), nothing where nothing can say. A table of platforms, on a /proc and a psutil of the
test's making: the rules, not this machine's scheduler (tests/test_busy_machine.py)."""

from __future__ import annotations

import os
import sys
import time
import types
from dataclasses import dataclass

import pytest

from grader.sandbox import posixstart, procfs, runclock
from grader.sandbox.runclock import Started


@dataclass(frozen=True)
class _Times:
    user: float
    system: float


class _Process:
    """A process psutil would show: its own CPU times, and its tree under it."""

    def __init__(self, pid: int) -> None:
        if pid != os.getpid():
            raise _Error(pid)
        self.times = _Times(1.0, 0.5)

    def cpu_times(self) -> _Times:
        return self.times

    def children(self, recursive: bool) -> list[_Child]:
        assert recursive  # the whole tree, grandchildren included
        return [_Child(_Times(0.25, 0.125)), _Child(_Times(2.0, 0.0))]


@dataclass
class _Child:
    times: _Times

    def cpu_times(self) -> _Times:
        return self.times


class _Error(Exception):
    pass


def _psutil() -> types.ModuleType:
    fake = types.ModuleType("psutil")
    fake.Process = _Process  # type: ignore[attr-defined]
    fake.Error = _Error  # type: ignore[attr-defined]
    return fake


@pytest.mark.parametrize(
    ("proc", "waits", "psutil", "pid", "read"),
    [
        (True, True, None, "own", (1.5, 0.25)),  # Linux: both, from /proc
        (True, False, None, "own", (1.5, None)),  # a kernel without schedstat: no wait
        (False, True, "fake", "own", (3.875, None)),  # macOS: psutil, the whole tree's CPU
        (False, True, "fake", "gone", (None, None)),  # a process psutil cannot find
        (False, True, "missing", "own", (None, None)),  # neither /proc nor psutil
    ],
)
def test_what_a_running_run_is_read_for(
    monkeypatch: pytest.MonkeyPatch,
    proc: bool,
    waits: bool,
    psutil: str | None,
    pid: str,
    read: tuple[float | None, float | None],
) -> None:
    monkeypatch.setattr(procfs, "usage", {os.getpid(): (1.5, 0.25)}.__getitem__)
    monkeypatch.setattr(procfs, "waits_known", lambda: waits)
    if not proc:
        monkeypatch.setattr(procfs, "PROC", "/nonexistent-proc")
    if psutil is not None:
        monkeypatch.setitem(sys.modules, "psutil", _psutil() if psutil == "fake" else None)
    assert runclock.live_usage(os.getpid() if pid == "own" else -1) == read


def test_a_run_reaped_while_its_clock_reads_it_is_over_not_an_error() -> None:
    """Its figures go once it is reaped (a POSIX run's usage_now says None then): a run that
    ends between its wait and the clock's reading of it ends with its status."""
    figures = iter([(0.5, 0.1), (None, None)])
    statuses = iter([None, 0])
    started = Started(
        wait=lambda timeout: next(statuses),
        kill=lambda: None,
        cpu_s=lambda: 0.5,
        usage_now=lambda: next(figures),
        close=lambda: None,
        stdout=None,  # type: ignore[arg-type]
        stderr=None,  # type: ignore[arg-type]
        start=0.0,
        cpu_limited=lambda status: False,
    )
    assert runclock.wait_stretched(started, time.monotonic(), 60.0) == (0, 0.0)


@pytest.mark.parametrize(
    ("rusage", "watched", "peak"),
    [(None, None, None), (0, None, None), (5, None, 5), (None, 7, 7), (5, 7, 7), (9, 7, 9)],
)
def test_a_runs_peak_is_the_larger_figure_there_is(
    rusage: int | None, watched: int | None, peak: int | None
) -> None:
    """The first process's rusage or the tree watch's most, whichever is more; none where
    neither says (a kernel's 0 is no figure)."""
    assert posixstart._larger(rusage, watched) == peak
