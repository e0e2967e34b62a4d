"""Running a teacher's checker program on one case's output, in the sandbox.

The contract (Kattis's output validators, simplified): ``python check.py input expected`` in
a fresh folder holding those two files, with the submission's output on stdin. Exit 0 accepts;
exit 1 rejects, the first line printed being the reason the student sees; anything else (a
crash, an uncaught exception included, or a time-out) is the checker's fault, a grader error,
never charged to the student.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .compare import Checker, Comparator
from .errors import InternalError
from .records import Case, Comparison, Mismatch
from .text import decode, last_line

if TYPE_CHECKING:
    from .grading import Plan
    from .sandbox import RunResult

ACCEPT, REJECT = 0, 1


@dataclass(frozen=True)
class CheckerRun:
    """A ``Comparator`` for one case: runs the checker on the output it is given."""

    plan: Plan
    case: Case
    checker: Checker

    def __call__(self, expected: str, got: str) -> Comparison:
        program = self.plan.exercise.root.path / self.checker.program
        run = self.plan.runner(
            [self.plan.python, str(program), "input", "expected"],
            stdin=got.encode("utf-8", errors="surrogateescape"),
            limits=self.plan.limits,
            files={"input": self.case.input, "expected": expected.encode()},
        )
        return checker_verdict(run, got, self.checker.program)


def checker_verdict(run: RunResult, got: str, program: str) -> Comparison:
    """What the checker's run (on the output ``got``) says of it; InternalError where the
    checker itself failed. The browser (``grade site``) judges its own checker runs by it too."""
    said = decode(run.stdout).strip().split("\n", 1)[0][:300]
    # An uncaught exception exits 1 too: its traceback tells the checker's crash (the
    # grader's fault) from its verdict
    crashed = "Traceback (most recent call last)" in decode(run.stderr)
    if run.limit_hit is None and run.exit_code == ACCEPT:
        return Comparison(True)
    if run.limit_hit is None and run.exit_code == REJECT and not crashed:
        first = got.split("\n", 1)[0]
        return Comparison(False, Mismatch.CHECKER, line=1, got_line=first, note=said)
    why = run.limit_hit or f"exit code {run.exit_code}, signal {run.signal}"
    raise InternalError(f"the checker {program} failed ({why}): {last_line(decode(run.stderr))}")


def comparator_for(plan: Plan, case: Case) -> Comparator:
    """What compares ``case``'s output: the exercise's comparator, or its checker bound to
    the case."""
    comparator = plan.exercise.comparator
    if isinstance(comparator, Checker):
        return CheckerRun(plan, case, comparator)
    return comparator
