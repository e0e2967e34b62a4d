"""The time limit as one rule: which limit holds, how far a busy machine stretches it, and what
a run's measured times mean. A table per question; the sandbox, the judge and the browser read
these same functions, so a change of rule shows here first."""

from __future__ import annotations

import pytest

from grader.judging.runs import Clock, LimitHit
from grader.judging.timing import (
    browser_limit_s,
    compiler_stalled,
    cpu_cap_s,
    deadline_s,
    kept_waiting,
    portable_waited,
    start_allowance_s,
    time_limit,
    time_message,
    time_verdict,
)


@pytest.mark.parametrize(
    ("exercise", "course", "option", "seconds"),
    [
        (5.0, None, None, 5.0),
        (5.0, 8.0, None, 8.0),
        (5.0, None, 2.0, 2.0),
        (5.0, 8.0, 2.0, 2.0),  # the command line wins over grade.toml
        (5.0, 8.0, 30.0, 30.0),  # longer too: a slow laptop's choice
    ],
)
def test_which_limit_holds(
    exercise: float, course: float | None, option: float | None, seconds: float
) -> None:
    assert time_limit(exercise, course, option) == seconds


@pytest.mark.parametrize(("limit", "cap"), [(5.0, 6), (0.5, 2), (1.0, 2), (2.01, 4), (60.0, 61)])
def test_the_cpu_cap_is_a_whole_second_above_the_wall_limit(limit: float, cap: int) -> None:
    assert cpu_cap_s(limit) == cap


@pytest.mark.parametrize(("limit", "shown"), [(5.0, 5.0), (60.0, 60.0), (90.0, 60.0)])
def test_the_browser_gives_at_most_a_minute(limit: float, shown: float) -> None:
    assert browser_limit_s(limit) == shown


@pytest.mark.parametrize(
    ("cpu", "queued", "wall", "kept"),
    [
        (1.0, 0.0, 1.0, 0.0),  # had a CPU all along
        (0.5, 0.5, 1.0, 0.5),  # others held the CPU half the time
        (1.0, 0.9, 1.0, 0.0),  # a thread queued behind its sibling: the run's own doing
        (0.2, 0.3, 1.0, 0.3),  # slept the rest: only the queueing counts
        (0.9, 0.3, 1.0, pytest.approx(0.1)),  # never more than the time off a CPU
        (1.2, 0.5, 1.0, 0.0),  # two threads on two CPUs: never negative
    ],
)
def test_only_others_load_counts_as_waiting(
    cpu: float, queued: float, wall: float, kept: float
) -> None:
    assert kept_waiting(cpu, queued, wall) == kept


@pytest.mark.parametrize(
    ("cpu", "wall", "queued", "waited"),
    [
        (None, 3.0, None, 0.0),  # CPU time unknown: no stretch
        (0.2, 1.0, None, 0.8),  # a fifth of a CPU: computing on a 4x-loaded machine
        (0.1, 1.0, None, 0.9),  # a tenth: still computing
        (0.09, 1.0, None, 0.0),  # below: sleeping or waiting, its limit stays
        (0.0, 1.0, None, 0.0),  # time.sleep
        (1.0, 1.0, None, 0.0),  # a CPU all along: nothing to wait for
        (1.5, 1.0, None, 0.0),  # two threads: never negative
        (0.0, 0.0, None, 0.0),  # not started yet
        # the platform says how long it waited, runnable, for a CPU (Linux): that wait, however
        # small its share; a sleeper waits for none
        (0.05, 1.0, 0.95, 0.95),  # starved in its first second: a twentieth, not asleep
        (0.0, 1.0, 1.0, 1.0),  # not yet given a CPU at all
        (0.02, 1.0, 0.0, 0.0),  # time.sleep, where the wait is known: none
        (0.2, 1.0, 0.1, 0.1),  # a fifth, but the rest of it asleep: only its wait
        (0.5, 1.0, 0.9, 0.5),  # never more than the wall time it did not compute
        (None, 1.0, 0.9, 0.0),  # CPU time unknown: no stretch
    ],
)
def test_a_portable_run_that_computes_slowly_was_kept_waiting(
    cpu: float | None, wall: float, queued: float | None, waited: float
) -> None:
    assert portable_waited(cpu, wall, queued) == pytest.approx(waited)


@pytest.mark.parametrize(
    ("limit", "waited", "deadline"),
    [
        (5.0, 0.0, 5.0),
        (5.0, 2.0, 7.0),
        (5.0, 10.0, 15.0),
        (5.0, 44.0, 49.0),
        (5.0, 45.0, 50.0),
        (5.0, 60.0, 50.0),
        (1.0, -1.0, 1.0),
    ],
)
def test_a_busy_machine_stretches_the_clock_up_to_ten_times(
    limit: float, waited: float, deadline: float
) -> None:
    assert deadline_s(limit, waited) == deadline


@pytest.mark.parametrize(
    ("clock", "verdict"),
    [
        (Clock(wall_s=0.3, cpu_s=0.2), None),
        (Clock(wall_s=5.0, cpu_s=5.0, stopped=True), LimitHit.WALL_TIME),
        (Clock(wall_s=7.0, queued_s=2.0, cpu_s=5.0, stopped=True), LimitHit.WALL_TIME),
        # stopped at three times its limit with less than its limit its own: the machine's
        (Clock(wall_s=15.0, queued_s=11.0, cpu_s=4.0, stopped=True), LimitHit.BUSY),
        (Clock(wall_s=15.0, queued_s=10.0, cpu_s=5.0, stopped=True), LimitHit.WALL_TIME),
        (Clock(wall_s=5.0, queued_s=0.005, cpu_s=4.9, stopped=True), LimitHit.WALL_TIME),
        (Clock(wall_s=5.0, queued_s=0.02, cpu_s=4.9, stopped=True), LimitHit.BUSY),
        # it used its whole limit computing: a time-out however long it waited besides
        (Clock(wall_s=50.0, queued_s=45.5, cpu_s=4.995, stopped=True), LimitHit.WALL_TIME),
        (Clock(wall_s=50.0, queued_s=45.5, cpu_s=5.0, stopped=True), LimitHit.WALL_TIME),
        (Clock(wall_s=50.0, queued_s=45.5, cpu_s=4.98, stopped=True), LimitHit.BUSY),
        (Clock(wall_s=50.0, queued_s=45.5, cpu_s=None, stopped=True), LimitHit.BUSY),
        # its own time exactly the clock's resolution short of the limit: it had its time
        (Clock(wall_s=4.99, cpu_s=4.9, stopped=True), LimitHit.WALL_TIME),
        (Clock(wall_s=3.0, cpu_s=6.0, cpu_signal=True), LimitHit.CPU_TIME),
        (Clock(wall_s=3.0, cpu_s=5.0, killed=True), LimitHit.CPU_TIME),  # the hard cap
        (Clock(wall_s=0.1, cpu_s=0.01, killed=True), None),  # killed otherwise
        (Clock(wall_s=0.1, cpu_s=None, killed=True), None),
    ],
)
def test_what_a_runs_times_mean(clock: Clock, verdict: LimitHit | None) -> None:
    assert time_verdict(5.0, clock) is verdict


@pytest.mark.parametrize(
    ("clock", "verdict"),
    [
        # killed (by whom is not known) with its CPU time unknown: never a CPU time-out, even
        # under a limit shorter than a second
        (Clock(wall_s=0.1, cpu_s=None, killed=True), None),
        (Clock(wall_s=0.6, cpu_s=0.5, killed=True), LimitHit.CPU_TIME),
    ],
)
def test_under_half_a_second(clock: Clock, verdict: LimitHit | None) -> None:
    assert time_verdict(0.5, clock) is verdict


AFTER = "after printing 0 of the 2 expected lines"
WAITING = (
    " (it was waiting, not computing: 0.01 s of CPU; does it read more lines than the input has?)"
)
COMPUTING = " (computing all along: an endless loop, or too slow an approach)"
NO_ANSWER = "no answer within 5 s"


@pytest.mark.parametrize(
    ("verdict", "clock", "progress", "message"),
    [
        (
            LimitHit.WALL_TIME,
            Clock(wall_s=5.0, cpu_s=0.01, stopped=True),
            AFTER,
            f"{NO_ANSWER}; stopped {AFTER}{WAITING}",
        ),
        # exactly a quarter of the limit is no longer "waiting"
        (
            LimitHit.WALL_TIME,
            Clock(wall_s=5.0, cpu_s=1.25, stopped=True),
            AFTER,
            f"{NO_ANSWER}; stopped {AFTER}",
        ),
        # exactly a half is "computing"
        (
            LimitHit.WALL_TIME,
            Clock(wall_s=5.0, cpu_s=2.5, stopped=True),
            AFTER,
            f"{NO_ANSWER}; stopped {AFTER}{COMPUTING}",
        ),
        (
            LimitHit.WALL_TIME,
            Clock(wall_s=12.5, queued_s=7.5, cpu_s=5.0, stopped=True),
            AFTER,
            f"{NO_ANSWER} of its own time (12.5 s on the clock, 7.5 s of them waiting for a CPU "
            f"this busy machine gave others); stopped {AFTER}{COMPUTING}",
        ),
        # the clock ran past the limit with no wait measured: both clocks still said
        (
            LimitHit.WALL_TIME,
            Clock(wall_s=12.54, queued_s=0.0, cpu_s=5.0, stopped=True),
            AFTER,
            f"{NO_ANSWER} of its own time (12.5 s on the clock: the machine was busy); "
            f"stopped {AFTER}{COMPUTING}",
        ),
        (
            LimitHit.WALL_TIME,
            Clock(wall_s=5.0, cpu_s=None, stopped=True),
            AFTER,
            f"{NO_ANSWER}; stopped {AFTER}",
        ),
        # no progress known (a checker's run, the reference): nothing said of it
        (LimitHit.WALL_TIME, Clock(wall_s=5.0, cpu_s=None, stopped=True), "", NO_ANSWER),
        # a tenth of a second past the limit is the clock's own: not worth a word
        (LimitHit.WALL_TIME, Clock(wall_s=5.1, queued_s=0.1, stopped=True), "", NO_ANSWER),
        (
            LimitHit.WALL_TIME,
            Clock(wall_s=5.5, queued_s=0.1, stopped=True),
            "",
            f"{NO_ANSWER} of its own time (5.5 s on the clock, 0.1 s of them waiting for a CPU "
            "this busy machine gave others)",
        ),
        # a wait under a tenth of a second is not shown as one
        (
            LimitHit.WALL_TIME,
            Clock(wall_s=5.5, queued_s=0.09, stopped=True),
            "",
            f"{NO_ANSWER} of its own time (5.5 s on the clock: the machine was busy)",
        ),
        (
            LimitHit.CPU_TIME,
            Clock(wall_s=3.0, cpu_s=6.0, cpu_signal=True),
            AFTER,
            f"used more than 5 s of CPU time; stopped {AFTER}{COMPUTING}",
        ),
        (
            LimitHit.CPU_TIME,
            Clock(wall_s=3.0, cpu_s=6.0, cpu_signal=True),
            "",
            f"used more than 5 s of CPU time{COMPUTING}",
        ),
        (  # the one who runs the grader reads this; progress is not the point
            LimitHit.BUSY,
            Clock(wall_s=15.0, queued_s=11.0, cpu_s=4.0, stopped=True),
            AFTER,
            "this machine was too busy to give the run its 5 s: it spent 11.0 s of 15.0 s "
            "waiting for a CPU; grade it again with fewer runs at once (--jobs)",
        ),
        (None, Clock(wall_s=1.0), AFTER, ""),
    ],
)
def test_what_a_student_reads(
    verdict: LimitHit | None, clock: Clock, progress: str, message: str
) -> None:
    assert time_message(verdict, 5.0, clock, progress) == message


def test_progress_is_said_only_where_given() -> None:
    clock = Clock(wall_s=5.0, stopped=True)
    assert time_message(LimitHit.WALL_TIME, 5.0, clock) == NO_ANSWER


@pytest.mark.parametrize(
    ("cpu_s", "stalled"),
    [
        (0.0, True),  # never got a CPU
        (0.99, True),
        (1.0, False),  # computed half its limit: the script is what it worked on
        (1.9, False),
        (None, False),  # not known (Linux counts a busy machine by schedstat instead)
    ],
)
def test_a_compiler_the_clock_stopped_without_computing_was_kept_waiting(
    cpu_s: float | None, stalled: bool
) -> None:
    assert compiler_stalled(2.0, cpu_s) is stalled


@pytest.mark.parametrize(("limit", "allowed"), [(0.5, 10.0), (2.0, 10.0), (30.0, 30.0)])
def test_an_interpreter_may_take_ten_seconds_or_the_limit_to_start(
    limit: float, allowed: float
) -> None:
    assert start_allowance_s(limit) == allowed
