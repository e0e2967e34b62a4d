"""The graded result: verdicts per case, the report of a whole submission, and its score."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .compare import Comparison
from .errors import ExitCode
from .spec import Visibility


class Verdict(StrEnum):
    PASSED = "passed"
    WRONG_ANSWER = "wrong_answer"
    RUNTIME_ERROR = "runtime_error"
    TIMEOUT = "timeout"
    MEMORY_LIMIT = "memory_limit"
    OUTPUT_LIMIT = "output_limit"
    GRADER_ERROR = "grader_error"  # the grader, spec or reference is at fault, never the student


@dataclass(frozen=True)
class CaseOutcome:
    name: str
    title: str
    verdict: Verdict
    message: str  # one line: why this verdict
    time_s: float
    exit_code: int | None  # None when killed by a signal or never started
    max_points: float
    visibility: Visibility = Visibility.VISIBLE
    hint: str | None = None
    input: str = ""
    stdout: str = ""
    stderr: str = ""
    comparison: Comparison | None = None

    @property
    def passed(self) -> bool:
        return self.verdict is Verdict.PASSED

    @property
    def visible(self) -> bool:
        """Whether its input, expected output and actual output may be shown (feedback policy)."""
        return self.visibility is Visibility.VISIBLE

    @property
    def points(self) -> float:
        return self.max_points if self.passed else 0.0


@dataclass(frozen=True)
class Report:
    exercise: str
    submission: str
    cases: tuple[CaseOutcome, ...]
    started_at: str = ""  # ISO 8601, UTC, to the second, without a zone (as JUnit wants it)
    hostname: str = ""

    @property
    def passed(self) -> int:
        return sum(c.passed for c in self.cases)

    @property
    def total(self) -> int:
        return len(self.cases)

    @property
    def points(self) -> float:
        return sum(c.points for c in self.cases)

    @property
    def max_points(self) -> float:
        return sum(c.max_points for c in self.cases)

    @property
    def score(self) -> float:
        """Fraction of the points earned, 0 to 1 (cases of 0 points count for nothing)."""
        if self.max_points > 0:
            return self.points / self.max_points
        return 1.0 if self.passed == self.total else 0.0

    @property
    def time_s(self) -> float:
        return round(sum(c.time_s for c in self.cases), 3)

    @property
    def exit_code(self) -> ExitCode:
        # A grader error outranks a failure: the student's result is not known.
        if any(c.verdict is Verdict.GRADER_ERROR for c in self.cases):
            return ExitCode.GRADER_ERROR
        return ExitCode.OK if self.passed == self.total else ExitCode.FAILED
