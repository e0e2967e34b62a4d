"""How a grading is set up: ``prepare`` builds a ``Plan`` once (which cases, which limits, what
a run may see, how many at once), and every command that runs submissions uses it."""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..judging.mistakes import Mistakes
from ..judging.records import Case
from ..judging.runs import Limits, Runner
from ..judging.timing import time_limit
from ..model.cases import exercise_cases
from ..model.known_mistakes import load as known_mistakes
from ..model.resources import Root
from ..model.spec import Exercise
from ..sandbox import Isolation, Sandbox, SandboxMode
from ..sandbox.cpus import usable_cpus
from .submissions import MAX_SUBMISSION_BYTES


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
    # a run the machine starved is run again holding this, so that retries go one at a time
    retry_gate: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

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
    workers = max(1, jobs or usable_cpus())  # never more runs than CPUs by default
    at_once = min(workers, len(cases))
    if sandbox is not None:
        box = sandbox.hiding(hidden).preloading(exercise.preload)
        box.warm(at_once)
    else:
        box = Sandbox.create(
            mode, hide=hidden, isolation=isolation, preload=exercise.preload, warm=at_once
        )
    limit = time_limit(exercise.limits.time_s, exercise.root.config.timeout, timeout_s)
    limits = replace(exercise.limits, time_s=limit)
    return Plan(
        exercise=exercise,
        cases=cases,
        limits=limits,
        runner=box.run,
        jobs=workers,
        sandbox=box,
        mistakes=known_mistakes(exercise) if cases_dir is None else Mistakes(),
        max_submission_bytes=exercise.root.config.max_submission_bytes,
    )
