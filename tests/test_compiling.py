"""The compile check's own verdicts: a syntax error, a compile bomb (the student's), and a
compiler the machine kept from a CPU (the grader's, asked again first). The runs are made up:
what the sandbox reports for each is in ``test_grading.py`` and the sandbox tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from grader.judging.errors import InternalError
from grader.judging.runs import LimitHit, Limits, RunResult
from grader.running.compiling import compile_error

LIMITS = Limits(time_s=2.0)
COMPILED = RunResult(0, None, 0.1, b"", b"", cpu_s=0.05)
STALLED = RunResult(None, 9, 2.0, b"", b"", limit_hit=LimitHit.WALL_TIME, cpu_s=0.02)
COMPUTING = RunResult(None, 9, 2.0, b"", b"", limit_hit=LimitHit.WALL_TIME, cpu_s=1.9)


class Scripted:
    """A runner that answers each run with the next of ``runs``."""

    def __init__(self, *runs: RunResult) -> None:
        self.runs, self.calls = list(runs), 0

    def __call__(self, argv: Sequence[str], **kwargs: Any) -> RunResult:
        self.calls += 1
        return self.runs.pop(0)


def test_a_compiler_kept_from_a_cpu_is_asked_again() -> None:
    """A slow start under a busy Windows laptop (or Wine) took the whole limit before the
    compiler ran: "does not compile" would be a verdict the student did not earn."""
    runner = Scripted(STALLED, COMPILED)
    assert compile_error(runner, "python", "my.py", b"print(1)\n", LIMITS) == ""
    assert runner.calls == 2


def test_a_compiler_kept_from_a_cpu_twice_is_the_graders_error() -> None:
    runner = Scripted(STALLED, STALLED)
    with pytest.raises(InternalError, match="too busy"):
        compile_error(runner, "python", "my.py", b"print(1)\n", LIMITS)
    assert runner.calls == 2


@pytest.mark.parametrize(
    "run", [COMPUTING, RunResult(None, 9, 2.0, b"", b"", limit_hit=LimitHit.WALL_TIME, cpu_s=None)]
)
def test_a_compiler_that_computed_all_along_is_the_scripts_compile_bomb(run: RunResult) -> None:
    runner = Scripted(run)
    said = compile_error(runner, "python", "my.py", b"f(" + b"a=1," * 9 + b")\n", LIMITS)
    assert said == "the compiler took more than 2 s over this script\n"
    assert runner.calls == 1
