"""The time limit, decided once: which limit a run is held to, how far a busy machine may
stretch its clock, and what a run's measured times mean.

Pure: the sandbox measures (wall clock, CPU, time spent waiting for a CPU) and calls these;
the judge, the checker, the reference and the browser read the same answers. The table test
is ``tests/test_timing.py``.
"""

from __future__ import annotations

import math

from .runs import Clock, LimitHit

# A run's wall clock stretches by the time others' load kept it from a CPU, up to this many
# times its limit: a 4x-overloaded machine gives a spinning run a fifth of a CPU, and it must
# still reach its CPU limit (a time-out) before the backstop ends it (a grader error)
MOST_STRETCH = 10.0
# A run the machine starved before it could use its limit is run again (one retry at a time)
# this many times before it is a grader error (isolate and DOMjudge judge it again, not charge it)
BUSY_RETRIES = 2
BROWSER_MOST_S = 60.0  # the practice page gives no run longer (a Web Worker the page ends)
# "it was waiting" below a quarter of the limit in CPU, "computing all along" from a half
WAITING_BELOW = 0.25
COMPUTING_FROM = 0.5
# A portable run using at least this share of a CPU is computing, however slowly a loaded
# machine lets it: a 4x-overloaded machine gives it a fifth, a sleeping run uses next to none
COMPUTING_SHARE = 0.1
# A run's interpreter may take this long (or its limit, if longer) to come up before its own
# clock starts: a Windows laptop's first start under its antivirus takes seconds
START_MOST_S = 10.0
_SLACK_S = 0.01  # the clock's own resolution: a run stopped this close to its limit had it


def time_limit(
    exercise_s: float, course_s: float | None = None, option_s: float | None = None
) -> float:
    """The limit a student's run is held to: ``--timeout``, else the course's ``timeout``
    (grade.toml), else the exercise's ``limits.time_s``. The reference and a checker are the
    exercise's own and always get ``exercise_s``: a student's option is theirs alone."""
    if option_s is not None:
        return option_s
    if course_s is not None:
        return course_s
    return exercise_s


def cpu_cap_s(limit_s: float) -> int:
    """RLIMIT_CPU's soft limit, in whole seconds (what the kernel counts in): a little above
    the wall-clock limit, so that a run computing all along meets the wall clock first, and
    CPU time in several threads cannot outrun it unseen."""
    return math.ceil(limit_s) + 1


def start_allowance_s(limit_s: float) -> float:
    """How long the portable runner waits for a run's interpreter to be up (its ready byte)
    before the run's own clock starts: the start is the machine's time, not the script's.
    One that is not up by then is the grader's error."""
    return max(START_MOST_S, limit_s)


def browser_limit_s(limit_s: float) -> float:
    """The limit a run in the practice page is held to."""
    return min(limit_s, BROWSER_MOST_S)


def kept_waiting(cpu_s: float, most_queued_s: float, wall_s: float) -> float:
    """How long others' load kept a run from a CPU: the longest wait of one of its threads,
    but no more than the wall time it did not spend on a CPU itself. A run whose threads queue
    behind each other (one at nice 19 beside the main one) keeps a CPU busy all along: its
    waits are its own doing, and earn it nothing."""
    return max(0.0, min(most_queued_s, wall_s - cpu_s))


def deadline_s(limit_s: float, waited_s: float) -> float:
    """When, counted from its start, a run that others' load kept ``waited_s`` from a CPU is
    stopped: its limit plus that wait, up to ``MOST_STRETCH`` times its limit."""
    return min(limit_s + max(0.0, waited_s), limit_s * MOST_STRETCH)


def portable_waited(cpu_s: float | None, wall_s: float, queued_s: float | None = None) -> float:
    """How long others' load kept a portable run from a CPU. Where the platform says how long
    its threads waited, runnable, for one (``queued_s``: Linux's schedstat), that wait, as the
    Linux sandbox reads it (``kept_waiting``). Where it says only how much CPU the run used so
    far (macOS, Windows): a run that computed at least ``COMPUTING_SHARE`` of its wall time was
    computing and waiting for a CPU the rest of it; one below that was sleeping or waiting for
    something else, and its limit stays. Unknown CPU time stretches nothing."""
    if cpu_s is None or wall_s <= 0:
        return 0.0
    if queued_s is not None:
        return kept_waiting(cpu_s, queued_s, wall_s)
    if cpu_s < wall_s * COMPUTING_SHARE:
        return 0.0
    return wall_s - cpu_s if wall_s > cpu_s else 0.0


def time_verdict(limit_s: float, clock: Clock) -> LimitHit | None:
    """Whether a run kept to its time limit (None), and if not whose fault it was."""
    if clock.stopped:
        if clock.cpu_s is not None and clock.cpu_s >= limit_s - _SLACK_S:
            return LimitHit.WALL_TIME  # it used its limit computing: waits change nothing
        own = clock.wall_s - clock.queued_s
        return LimitHit.BUSY if own < limit_s - _SLACK_S else LimitHit.WALL_TIME
    used = clock.cpu_s if clock.cpu_s is not None else 0.0
    if clock.cpu_signal or (clock.killed and used >= limit_s):
        return LimitHit.CPU_TIME
    return None


def compiler_stalled(limit_s: float, cpu_s: float | None) -> bool:
    """Whether a compile check the wall clock stopped was kept from a CPU, not busy with the
    script: the compiler never waits (the script's text is all on its stdin), so one that
    computed less than half its limit spent the rest waiting for this machine. Unknown CPU
    time says nothing (Linux tells a busy machine by its wait for a CPU instead)."""
    return cpu_s is not None and cpu_s < limit_s * COMPUTING_FROM


def time_message(verdict: LimitHit | None, limit_s: float, clock: Clock, progress: str = "") -> str:
    """What a student (or, for BUSY, the one who runs the grader) reads of ``verdict``;
    ``progress`` says how far the run got ("after printing 2 of the 4 expected lines")."""
    stopped = f"; stopped {progress}" if progress else ""
    if verdict is LimitHit.BUSY:
        return (
            f"this machine was too busy to give the run its {limit_s:g} s: it spent "
            f"{clock.queued_s:.1f} s of {clock.wall_s:.1f} s waiting for a CPU; grade it "
            "again with fewer runs at once (--jobs)"
        )
    if verdict is LimitHit.CPU_TIME:
        return (
            f"used more than {limit_s:g} s of CPU time{stopped} "
            "(computing all along: an endless loop, or too slow an approach)"
        )
    if verdict is not LimitHit.WALL_TIME:
        return ""
    message = f"no answer within {limit_s:g} s"
    if clock.wall_s > limit_s + 0.1:  # the clock read more (the time column shows it): say why
        waited = (
            f", {clock.queued_s:.1f} s of them waiting for a CPU this busy machine gave others"
            if clock.queued_s >= 0.1
            else ": the machine was busy"
        )
        message += f" of its own time ({clock.wall_s:.1f} s on the clock{waited})"
    message += stopped
    if clock.cpu_s is not None and clock.cpu_s < limit_s * WAITING_BELOW:
        message += (
            f" (it was waiting, not computing: {clock.cpu_s:.2f} s of CPU; "
            "does it read more lines than the input has?)"
        )
    elif clock.cpu_s is not None and clock.cpu_s >= limit_s * COMPUTING_FROM:
        message += " (computing all along: an endless loop, or too slow an approach)"
    return message
