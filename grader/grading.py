"""Grading runs: ``prepare`` sets one up once (a ``Plan``), ``grade`` grades a submission with it.

Every command that runs submissions builds its ``Plan`` here, so the set-up (which cases, which
limits, what a run may see, how many at once) is decided in one place, not per command.
"""

from __future__ import annotations

import os
import signal
import socket
import stat
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

from .cases import exercise_cases
from .checker import comparator_for
from .judging.diagnose import advise
from .judging.errors import GraderError, SubmissionError
from .judging.judge import grader_error, judge, not_compiled, skipped, syntax_error
from .judging.mistakes import Mistakes
from .judging.records import Case, CaseOutcome, Report, Verdict
from .judging.timing import time_limit
from .mistakes import load as known_mistakes
from .resources import Root
from .sandbox import Isolation, Limits, RunResult, Sandbox, SandboxMode
from .spec import Exercise

Runner = Callable[..., RunResult]  # Sandbox.run's: (argv, *, stdin, limits, source=None)
MAX_SUBMISSION_BYTES = 1 << 20  # a script larger than 1 MiB is not a student's exercise


def submission_problem(path: Path, limit: int = MAX_SUBMISSION_BYTES) -> str | None:
    """Why ``path`` cannot be graded as a submission, or None. The one rule for every command;
    ``limit`` is the largest size in bytes (a course may set ``max_submission_kb``)."""
    return read_submission(path, limit)[1]


def read_submission(path: Path, limit: int = MAX_SUBMISSION_BYTES) -> tuple[bytes, str | None]:
    """The submission's text, read once, and why it cannot be graded (None if it can). What is
    graded is this text: the file read again later could have been swapped meanwhile (its
    folder for a link to one the grader can read and the student cannot)."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return b"", "does not exist"
    except OSError as exc:
        return b"", f"cannot be read: {exc.strerror}"
    if stat.S_ISLNK(info.st_mode):
        # followed, it could name any file the grader can read (a hidden .out, /etc/shadow) and
        # show its first line in a SyntaxError
        return b"", "is a symbolic link; grade the file itself"
    if stat.S_ISDIR(info.st_mode):
        return b"", "is a folder; give the .py file to grade"
    linked = linked_folder(path)
    if linked is not None:  # a link committed to a student's repository, where CI grades
        return b"", f"is reached through {linked}, a symbolic link; give its real path"
    if not stat.S_ISREG(info.st_mode):
        return b"", "is not a regular file"  # a FIFO or a device would hang or flood the grader
    if path.suffix == ".ipynb":
        return b"", (
            "is a notebook: export it with 'jupyter nbconvert --to script', then grade the .py"
        )
    if path.suffix != ".py":
        return b"", "is not a Python script (.py)"
    if info.st_size > limit:
        return b"", f"is larger than {limit >> 10} KiB"
    try:  # never through a link swapped in since the lstat
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return b"", "is not a regular file"
            data = f.read(limit + 1)
    except OSError as exc:
        return b"", f"cannot be read: {exc.strerror}"
    if len(data) > limit:
        return b"", f"is larger than {limit >> 10} KiB"
    if b"\0" in data:
        return b"", "is a binary file, not a Python script"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return b"", "is not UTF-8 text"
    return data, None


def linked_folder(path: Path, top: Path | None = None) -> str | None:
    """The first folder on ``path`` below ``top`` (the working directory) that is a symbolic
    link, named from ``top``; None if there is none, or if ``path`` is not below ``top``. What
    lies above ``top`` is the caller's own set-up, followed as it is. ``top`` is found on the
    path by what it is, not by its name: a link to it ("$PWD" of a linked folder) is it too."""
    here = Path.cwd()
    full = path if path.is_absolute() else here / path
    folders = [*reversed(full.parents)]
    start = next((i for i, folder in enumerate(folders) if _same(folder, top or here)), None)
    if start is None:
        return None
    for below in folders[start + 1 :]:
        if below.is_symlink():
            return str(below.relative_to(folders[start]))
    return None


def _same(one: Path, other: Path) -> bool:
    try:
        return one.samefile(other)
    except OSError:
        return False


def check_submission(path: Path, limit: int = MAX_SUBMISSION_BYTES) -> Path:
    """The submission as an absolute path, or a ``SubmissionError`` a student can act on."""
    return checked_submission(path, limit)[0]


def checked_submission(path: Path, limit: int = MAX_SUBMISSION_BYTES) -> tuple[Path, bytes]:
    """The submission as an absolute path and its text (what is graded), or a
    ``SubmissionError`` a student can act on."""
    text, problem = read_submission(path, limit)
    if problem is not None:
        raise SubmissionError(f"submission {path} {problem}")
    return path.resolve(), text


def hidden_from_runs(root: Root, cases_dir: Path | None = None) -> tuple[Path, ...]:
    """What no run may see: every exercise's cases, the teacher material, a ``--cases`` folder.

    The one place this is decided; absolute paths, since the sandbox's mounts need them.
    """
    hidden = [root.cases, root.material, root.secret_cases]
    if cases_dir is not None:
        hidden.append(cases_dir)
    return tuple(p.resolve() for p in hidden)


def open_sandbox(root: Root, *, mode: SandboxMode, cases_dir: Path | None = None) -> Sandbox:
    """A sandbox for runs of ``root``'s exercises (references included)."""
    return Sandbox.create(mode, hide=hidden_from_runs(root, cases_dir))


@dataclass(frozen=True)
class Plan:
    """How a grading run is set up: built once by ``prepare``, then used for every submission."""

    exercise: Exercise
    cases: tuple[Case, ...]
    limits: Limits
    runner: Runner  # the sandbox's run, or a test's stand-in
    jobs: int  # case-runs at once
    sandbox: Sandbox | None = field(default=None, repr=False)
    python: str = sys.executable
    skip_after_timeout: bool = False  # a submission's remaining cases, once one timed out
    stop_after_failure: bool = False  # -x: the cases after the first that does not pass
    max_time_per_submission: float | None = None  # seconds of runs, then the rest is skipped
    mistakes: Mistakes = field(default_factory=Mistakes)  # known-wrong outputs, per case
    max_submission_bytes: int = MAX_SUBMISSION_BYTES

    def notice(self) -> str | None:
        """The sandbox's one line on what is not isolated here, if anything."""
        return self.sandbox.notice() if self.sandbox is not None else None

    def cancel(self) -> None:
        """End the runs in progress and refuse new ones (Ctrl-C): the plan is spent after it."""
        if self.sandbox is not None:
            self.sandbox.cancel()


def prepare(
    exercise: Exercise,
    *,
    cases_dir: Path | None = None,
    mode: SandboxMode = SandboxMode.AUTO,
    sandbox: Sandbox | None = None,
    timeout_s: float | None = None,
    jobs: int | None = None,
    isolation: Isolation = Isolation.FORK,
) -> Plan:
    """The plan for grading submissions of ``exercise`` on its cases (or ``cases_dir``'s).

    ``sandbox``, when given, is reused (no new probe) and made to hide what ``hidden_from_runs``
    says too; else one is opened in ``mode``.
    """
    cases = exercise_cases(exercise, cases_dir)
    hidden = hidden_from_runs(exercise.root, cases_dir)
    workers = max(1, jobs or os.cpu_count() or 1)
    at_once = min(workers, len(cases))
    if sandbox is not None:
        box = sandbox.hiding(hidden).preloading(exercise.preload)
        box.warm(at_once)
    else:
        box = Sandbox.create(
            mode, hide=hidden, isolation=isolation, preload=exercise.preload, warm=at_once
        )
    limit = time_limit(exercise.limits.time_s, exercise.root.config.timeout, timeout_s)
    limits = replace(exercise.limits, time_s=limit.seconds)
    return Plan(
        exercise=exercise,
        cases=cases,
        limits=limits,
        runner=box.run,
        jobs=workers,
        sandbox=box,
        mistakes=known_mistakes(exercise) if cases_dir is None else Mistakes(),
        max_submission_bytes=exercise.root.config.max_submission_kb << 10,
    )


class Budget:
    """One submission's running account: whether its remaining cases still run (a hung
    submission should cost one time limit, not one per case). Shared by its case-runs' threads."""

    def __init__(self, plan: Plan) -> None:
        self._plan = plan
        self._lock = threading.Lock()
        self._used = 0.0
        self._stop: str | None = None
        self._failed: tuple[int, str] | None = None  # the first failing case, in case order

    def refusal(self, index: int) -> str | None:
        """Why case ``index`` (in case order) should not run, if it should not."""
        with self._lock:
            if self._failed is not None and index > self._failed[0]:
                return f"not run: case {self._failed[1]} failed first (-x)"
            return self._stop

    def record(self, index: int, outcome: CaseOutcome) -> None:
        with self._lock:
            failed = self._plan.stop_after_failure and not outcome.passed
            if failed and (self._failed is None or index < self._failed[0]):
                self._failed = (index, outcome.case.name)
            self._used += outcome.time_s
            limit = self._plan.max_time_per_submission
            if self._plan.skip_after_timeout and outcome.verdict is Verdict.TIMEOUT:
                self._stop = self._stop or f"not run: case {outcome.case.name} timed out"
            if limit is not None and self._used > limit:
                self._stop = self._stop or f"not run: the submission's {limit:g} s were spent"


def run_case(
    plan: Plan,
    script: Path,
    case: Case,
    budget: Budget | None = None,
    index: int = 0,
    text: bytes | None = None,
) -> CaseOutcome:
    """One case of one (checked) script, run on ``text`` (what the check read) where given;
    a fault of the grader's becomes that case's verdict."""
    refusal = budget.refusal(index) if budget is not None else None
    if refusal is not None:
        return skipped(case, refusal)
    try:
        argv = [plan.python, str(script)]
        run = plan.runner(argv, stdin=case.input, limits=plan.limits, source=text)
        outcome = judge(case, run, comparator_for(plan, case), plan.limits)
        outcome = replace(outcome, advice=advise(outcome, script))
        if outcome.verdict is Verdict.WRONG_ANSWER:
            outcome = replace(outcome, diagnosis=plan.mistakes.match(case.name, outcome.stdout))
    except GraderError as exc:
        outcome = grader_error(case, str(exc))
    except Exception as exc:  # one broken case must not stop the others
        outcome = grader_error(case, f"{type(exc).__name__}: {exc}")
    if budget is not None:
        budget.record(index, outcome)
    return outcome


def submit_cases(
    pool: Executor, plan: Plan, script: Path, cases: Sequence[Case], text: bytes | None = None
) -> list[Future[CaseOutcome]]:
    limited = (
        plan.skip_after_timeout
        or plan.stop_after_failure
        or plan.max_time_per_submission is not None
    )
    budget = Budget(plan) if limited else None
    return [
        pool.submit(run_case, plan, script, case, budget, i, text) for i, case in enumerate(cases)
    ]


def _after_first_failure(plan: Plan, outcomes: list[CaseOutcome]) -> list[CaseOutcome]:
    """With -x, every case after the first that did not pass is skipped, whether or not a run
    of it had already started: the report reads as if they ran one by one."""
    if not plan.stop_after_failure:
        return outcomes
    first = next((i for i, o in enumerate(outcomes) if not o.passed), None)
    if first is None:
        return outcomes
    why = f"not run: case {outcomes[first].case.name} failed first (-x)"
    return outcomes[: first + 1] + [skipped(o.case, why) for o in outcomes[first + 1 :]]


def report(
    plan: Plan, submission: Path, outcomes: Sequence[CaseOutcome], started: datetime
) -> Report:
    return Report(
        exercise=plan.exercise.name,
        submission=str(submission),
        outcomes=tuple(outcomes),
        started_at=started.isoformat(timespec="seconds"),
        hostname=socket.gethostname(),
    )


def now() -> datetime:
    return datetime.now(timezone.utc)


def _main_thread_takes_signals() -> None:
    # A process-directed signal goes to any thread that does not block it. Were Ctrl-C delivered
    # to a worker (blocked in poll on a run), the main thread, waiting on a lock, would never
    # wake to raise KeyboardInterrupt; blocked here, it can only reach the main thread.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})


def worker_pool(workers: int) -> ThreadPoolExecutor:
    """Threads for case-runs; signals stay with the main thread, which handles them."""
    return ThreadPoolExecutor(max_workers=workers, initializer=_main_thread_takes_signals)


OnCase = Callable[[CaseOutcome], None]


def grade(plan: Plan, submission: Path, *, on_case: OnCase | None = None) -> Report:
    """Run ``submission`` on every case of the plan (``plan.jobs`` at once), in case order;
    ``on_case`` hears of each outcome as soon as it and the ones before it are known."""
    return grade_many(plan, [submission], on_case=on_case)[0]


def compile_error(submission: Path, text: bytes | None = None) -> str:
    """What Python would print if ``submission`` (already checked; its ``text`` where the
    check read it) does not compile, or "".

    Checked once, before any case runs: a syntax error is one mistake, not one per case.
    """
    try:
        return syntax_error(submission.read_bytes() if text is None else text, str(submission))
    except OSError as exc:  # gone meanwhile
        return f"{type(exc).__name__}: {exc}\n"


def grade_many(
    plan: Plan, submissions: Sequence[Path], *, on_case: OnCase | None = None
) -> list[Report]:
    """Grade several scripts, every case-run of every one in one pool: the cores stay busy
    where one script's long case would leave the others idle. Reports keep the order given.
    A script that does not compile runs no case: each is a runtime_error saying so."""
    checked = [checked_submission(s, plan.max_submission_bytes) for s in submissions]
    scripts = [script for script, _text in checked]
    errors = [compile_error(script, text) for script, text in checked]
    started = now()
    pool = worker_pool(max(1, min(plan.jobs, len(plan.cases) * len(scripts))))
    try:
        futures = [
            [] if error else submit_cases(pool, plan, script, plan.cases, text)
            for (script, text), error in zip(checked, errors, strict=True)
        ]
        outcomes = []
        for each, error in zip(futures, errors, strict=True):
            done: list[CaseOutcome] = []
            for i, case in enumerate(plan.cases):
                done.append(not_compiled(case, error) if error else each[i].result())
                done = _after_first_failure(plan, done)
                if on_case is not None:
                    on_case(done[-1])
            outcomes.append(done)
    except BaseException:  # Ctrl-C: end the runs in progress now, not at their time limit
        plan.cancel()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return [
        replace(report(plan, s, o, started), compile_error=e)
        for s, o, e in zip(submissions, outcomes, errors, strict=True)
    ]
