"""The grader's error family and the exit codes the CLI turns them into.

The core raises these; only ``cli.py`` converts them into a one-line message and an exit code.
A student's failing submission is not an error: it is a ``Report`` with exit code 1.
"""

from __future__ import annotations

from enum import IntEnum
from pathlib import Path


class ExitCode(IntEnum):
    OK = 0
    FAILED = 1  # the submission did not pass every case
    USAGE = 2  # the caller asked for something that does not exist or cannot be read
    BROKEN_EXERCISE = 3  # spec, cases or metadata are malformed
    GRADER_ERROR = 4  # the grader, the reference or the machine is at fault
    INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT: what was graded is kept


class GraderError(Exception):
    """Base of every error the CLI reports without a traceback."""

    exit_code: ExitCode = ExitCode.GRADER_ERROR


class UsageError(GraderError):
    exit_code = ExitCode.USAGE


class UnknownExercise(UsageError):
    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        from .printed import closest

        self.name = name
        self.known = known
        close = closest(name, known)
        hint = f"; did you mean '{close}'?" if close else ""
        listing = ", ".join(known) if known else "none"
        super().__init__(f"unknown exercise '{name}'{hint} (known: {listing})")


class SubmissionError(UsageError):
    """The submission file is missing, unreadable or not a Python script."""


class ExerciseError(GraderError):
    """A broken exercise definition; the message names the file (and key) at fault."""

    exit_code = ExitCode.BROKEN_EXERCISE

    def __init__(
        self, path: Path | str, problem: str, *, line: int | None = None, column: int | None = None
    ) -> None:
        self.path = Path(path)
        self.problem = problem
        where = f"{path}:{line}:{column}" if line is not None and column is not None else f"{path}"
        super().__init__(f"{where}: {problem}")


class InternalError(GraderError):
    """Something the student cannot have caused: a missing reference, a runner that cannot start."""


class MachineBusy(InternalError):
    """The machine kept a run from a CPU so long that it could not use its limit: the run
    said nothing of the script, and is judged again (``timing.BUSY_RETRIES``), not charged."""
