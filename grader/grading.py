"""Grade one submission against an exercise's cases: the library entry point the CLI wraps."""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from .cases import Case, load_cases
from .errors import GraderError, SubmissionError
from .judge import grader_error, judge
from .report import CaseOutcome, Report
from .sandbox import RunResult, Sandbox, SandboxMode
from .spec import Exercise, parse_case_meta, read_yaml

Runner = Callable[..., RunResult]  # Sandbox.run's signature: (argv, *, stdin, limits)
CASES_META_FILE = "cases.yaml"


def check_submission(path: Path) -> Path:
    """The submission as an absolute path, or a ``SubmissionError`` a student can act on."""
    if not path.exists():
        raise SubmissionError(f"submission {path} does not exist")
    if path.is_dir():
        raise SubmissionError(f"submission {path} is a folder; give the .py file to grade")
    try:
        with path.open("rb") as f:
            f.read(1)
    except OSError as exc:
        raise SubmissionError(f"cannot read submission {path}: {exc.strerror}") from exc
    return path.resolve()


def exercise_cases(exercise: Exercise, cases_dir: Path | None = None) -> tuple[Case, ...]:
    """The exercise's own cases, or those of ``cases_dir`` (CI's hidden cases).

    A ``cases.yaml`` beside a ``--cases`` folder gives its cases titles, points and visibility.
    """
    if cases_dir is None:
        return load_cases(exercise.cases_dir, exercise.case_meta, meta_source=exercise.spec_path)
    meta_file = cases_dir / CASES_META_FILE
    if meta_file.is_file():
        meta = parse_case_meta(meta_file, read_yaml(meta_file))
        return load_cases(cases_dir, meta, meta_source=meta_file)
    return load_cases(cases_dir, {})


def secret_folders(exercise: Exercise, cases_dir: Path | None = None) -> list[Path]:
    """Folders a submission must not see: expected outputs and teacher material."""
    found = [exercise.cases_dir, cases_dir, exercise.teacher_dir]
    return [p for p in found if p is not None]


def default_runner(exercise: Exercise, cases_dir: Path | None = None) -> Runner:
    return Sandbox.create(SandboxMode.AUTO, hide=secret_folders(exercise, cases_dir)).run


def grade(
    exercise: Exercise,
    submission: Path,
    *,
    cases: Sequence[Case] | None = None,
    timeout_s: float | None = None,
    jobs: int | None = None,
    runner: Runner | None = None,
    python: str = sys.executable,
) -> Report:
    """Run ``submission`` on every case (in parallel) and judge each; outcomes keep case order.

    ``runner`` defaults to a sandbox in auto mode hiding the exercise's answers; pass a
    ``Sandbox(...).run`` of your own to choose the mode or to hide a ``--cases`` folder too.
    """
    script = check_submission(submission)
    run_case = runner if runner is not None else default_runner(exercise)
    chosen = tuple(cases) if cases is not None else exercise_cases(exercise)
    limits = exercise.limits if timeout_s is None else replace(exercise.limits, time_s=timeout_s)
    workers = max(1, min(jobs or os.cpu_count() or 1, len(chosen)))
    started = datetime.now(UTC)

    def one(case: Case) -> CaseOutcome:
        try:
            run = run_case([python, str(script)], stdin=case.input, limits=limits)
            return judge(case, run, exercise.comparator, limits)
        except GraderError as exc:
            return grader_error(case, str(exc))
        except Exception as exc:  # one broken case must not stop the others
            return grader_error(case, f"{type(exc).__name__}: {exc}")

    with ThreadPoolExecutor(max_workers=workers) as pool:
        outcomes = tuple(pool.map(one, chosen))
    return Report(
        exercise=exercise.name,
        submission=str(submission),
        cases=outcomes,
        started_at=started.strftime("%Y-%m-%dT%H:%M:%S"),
        hostname=socket.gethostname(),
    )
