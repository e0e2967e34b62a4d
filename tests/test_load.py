"""On a loaded machine, time a run spends waiting for a CPU is not its own: its wall-clock limit
grows by as much (up to ten times the limit), and a run the machine starved even so is the
grader's error, never the student's time-out.

The load is synthetic: a /proc of the test's own making for what the kernel says, and a
stand-in for procfs.usage under real runs, so that no assertion rests on the real scheduler
(these failed 10 runs in 10 beside another suite). The rules themselves are tables in
test_timing.py."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from grader.judging.errors import InternalError
from grader.judging.runs import LimitHit, Limits
from grader.judging.timing import MOST_STRETCH
from grader.sandbox import Isolation, Sandbox, SandboxMode, procfs
from grader.sandbox import process as process_module

TICK = os.sysconf("SC_CLK_TCK")


def _task(proc: Path, pid: int, tid: int, wait_ns: int, children: tuple[int, ...] = ()) -> None:
    task = proc / str(pid) / "task" / str(tid)
    task.mkdir(parents=True)
    (task / "schedstat").write_text(f"123456 {wait_ns} 7\n")
    (task / "children").write_text(" ".join(map(str, children)) + (" " if children else ""))


def _process(proc: Path, pid: int, cpu_ticks: tuple[int, int, int, int], name: str) -> None:
    (proc / str(pid)).mkdir(parents=True, exist_ok=True)
    fields = ["S", "1", *["0"] * 9, *map(str, cpu_ticks), *["0"] * 30]
    (proc / str(pid) / "stat").write_text(f"{pid} ({name}) {' '.join(fields)}\n")


def test_usage_sums_the_tree_and_takes_the_longest_wait(tmp_path: Path) -> None:
    """CPU of every process below the run (utime + stime + the reaped children's), and the
    longest one thread of them waited, runnable, for a CPU."""
    proc = tmp_path / "proc"
    _process(proc, 10, (TICK, TICK // 2, 0, 0), "python3 (a name) with ) in it")
    _task(proc, 10, 10, 200_000_000, children=(11,))
    _task(proc, 10, 12, 900_000_000)  # a thread of 10: the longest wait
    _process(proc, 11, (TICK // 2, 0, TICK, 0), "child")
    _task(proc, 11, 11, 100_000_000)
    cpu, most = procfs.usage(10, str(proc))
    assert cpu == pytest.approx(3.0)
    assert most == pytest.approx(0.9)
    assert procfs.tree(10, str(proc)) == [10, 11]


def test_usage_of_a_run_gone_or_unreadable_is_nothing(tmp_path: Path) -> None:
    proc = tmp_path / "proc"
    assert procfs.usage(99, str(proc)) == (0.0, 0.0)
    _process(proc, 5, (1, 1, 1, 1), "x")
    (proc / "5" / "task").mkdir()
    (proc / "5" / "stat").write_text("garbage")  # a process dying between two reads
    assert procfs.usage(5, str(proc)) == (0.0, 0.0)


Usage = Callable[[int], tuple[float, float]]


@pytest.fixture
def sleeper() -> Iterator[tuple[int, int]]:
    """A process that outlives any limit here, and its pidfd."""
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as child:
        pidfd = os.pidfd_open(child.pid)
        try:
            yield child.pid, pidfd
        finally:
            os.close(pidfd)
            child.kill()


def _waited_for(
    monkeypatch: pytest.MonkeyPatch, sleeper: tuple[int, int], limit: float, usage: Usage
) -> tuple[bool, float, int]:
    calls = []

    def counted(pid: int, proc: str = procfs.PROC) -> tuple[float, float]:
        calls.append(pid)
        return usage(pid)

    monkeypatch.setattr(procfs, "usage", counted)
    pid, pidfd = sleeper
    start = time.monotonic()
    exited = process_module._wait_for_run(pid, start, limit, pidfd)
    return exited, time.monotonic() - start, len(calls)


def test_no_wait_for_a_cpu_no_more_time(
    monkeypatch: pytest.MonkeyPatch, sleeper: tuple[int, int]
) -> None:
    exited, spent, calls = _waited_for(monkeypatch, sleeper, 0.2, lambda pid: (0.0, 0.0))
    assert not exited and spent >= 0.2 - 0.01  # poll rounds to ms; the loop stops 5 ms short
    assert calls == 1  # asked once at the limit: nothing to add


def test_others_load_stretches_the_clock_ten_times_at_most(
    monkeypatch: pytest.MonkeyPatch, sleeper: tuple[int, int]
) -> None:
    """Others held the CPU all along (no CPU time, a thread queued all along): the deadline
    moves with the wait, until ten times the limit."""
    started = time.monotonic()
    exited, spent, calls = _waited_for(
        monkeypatch, sleeper, 0.05, lambda pid: (0.0, time.monotonic() - started)
    )
    assert not exited and spent >= 0.05 * MOST_STRETCH - 0.01
    assert calls >= 2


def test_a_runs_own_queueing_earns_no_time(
    monkeypatch: pytest.MonkeyPatch, sleeper: tuple[int, int]
) -> None:
    """A thread queued behind its own sibling: CPU busy all along (cpu = wall), so its wait is
    its own and the deadline stays at the limit."""
    started = time.monotonic()

    def own(pid: int) -> tuple[float, float]:
        wall = time.monotonic() - started
        return wall, wall

    exited, spent, calls = _waited_for(monkeypatch, sleeper, 0.2, own)
    assert not exited and spent >= 0.2 - 0.01  # poll rounds to ms; the loop stops 5 ms short
    assert calls == 1


LOOP = "while True:\n    pass\n"


@pytest.fixture(scope="module")
def fresh_box() -> Sandbox:
    # fresh runs: the grader's own process waits on them, so the stand-in below is what it reads
    return Sandbox.create(SandboxMode.AUTO, isolation=Isolation.FRESH)


def _endless(tmp_path: Path) -> str:
    script = tmp_path / "loop.py"
    script.write_text(LOOP)
    return str(script)


@pytest.mark.slow  # real runs held to their (stretched) limits
def test_an_endless_loop_on_a_quiet_machine_is_a_time_out(
    fresh_box: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(procfs, "usage", lambda pid, proc=procfs.PROC: (0.5, 0.0))
    run = fresh_box.run([sys.executable, _endless(tmp_path)], stdin=b"", limits=Limits(time_s=0.5))
    assert run.limit_hit is LimitHit.WALL_TIME
    assert run.queued_s == 0.0


@pytest.mark.slow  # real runs held to their (stretched) limits
def test_a_run_the_machine_starved_is_the_graders_error(
    fresh_box: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three times its limit and less than its limit its own: not the student's to answer for
    (it used to read: "it was waiting, not computing")."""
    started = time.monotonic()
    monkeypatch.setattr(
        procfs, "usage", lambda pid, proc=procfs.PROC: (0.0, time.monotonic() - started)
    )
    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text("import time\ntime.sleep(600)\n")
    with pytest.raises(InternalError, match=r"too busy to give the run its 0\.5 s"):
        fresh_box.run([sys.executable, str(sleeper)], stdin=b"", limits=Limits(time_s=0.5))
