"""Running a teacher's checker program on one case's output, in the sandbox; what its run
means is ``judging.checker``'s (the browser judges its own checker runs by the same rules)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..judging.checker import checker_verdict
from ..judging.compare import Comparator
from ..judging.records import Case, Comparison
from ..judging.runs import Limits, Runner

if TYPE_CHECKING:
    from .plan import Plan


@dataclass(frozen=True)
class CheckerRun:
    """A ``Comparator`` for one case: runs the checker on the output it is given."""

    runner: Runner
    python: str
    program: Path  # the checker's file
    label: str  # its name in messages, as the spec gives it
    limits: Limits  # the checker's own: the reference's, never the student's --timeout
    case: Case

    def __call__(self, expected: str, got: str) -> Comparison:
        run = self.runner(
            [self.python, str(self.program), "input", "expected"],
            stdin=got.encode("utf-8", errors="surrogateescape"),
            limits=self.limits,
            files={"input": self.case.input, "expected": expected.encode()},
        )
        return checker_verdict(run, got, self.label)


def comparator_for(plan: Plan, case: Case) -> Comparator:
    """What compares ``case``'s output: the exercise's comparator, or its checker bound to
    the case."""
    compare = plan.exercise.compare
    if compare.comparator is not None:
        return compare.comparator
    assert compare.checker is not None  # one or the other: Compare says so
    program = plan.exercise.root.path / compare.checker
    return CheckerRun(
        plan.runner, plan.python, program, compare.checker, plan.exercise.limits, case
    )
