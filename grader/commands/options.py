"""The grading options every command shares, and the fork servers they call for: the first
thing a grading command does once it has its exercise, before its heavy imports (which
``planning`` brings), so that the servers' start-up (numpy's import) overlaps them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..sandbox import Isolation, Sandbox, SandboxMode
from ..sandbox.cpus import usable_cpus

if TYPE_CHECKING:
    from ..model.spec import Exercise


@dataclass(frozen=True)
class GradingOptions:
    """What a command may set over the course's settings for the runs it makes."""

    sandbox_mode: SandboxMode | None = None  # None: the course's, else auto
    cases_dir: Path | None = None  # grade against this folder's cases instead
    timeout_s: float | None = None  # per case, over the exercise's and the course's
    jobs: int | None = None  # case-runs at once; None: the course's, else the CPUs
    isolation: Isolation = Isolation.FORK


def start_servers(exercise: Exercise, options: GradingOptions) -> None:
    """Start the fork servers EXERCISE's runs will need, now: their interpreters' start and
    numpy's import overlap whatever the grader imports and reads meanwhile. A command calls it
    as soon as it has the exercise, before its own heavy imports; ``plan_for`` then finds them
    started (a second call starts none)."""
    if options.isolation is Isolation.FORK:
        cpus = usable_cpus()
        jobs = options.jobs or exercise.root.config.jobs
        Sandbox.start_servers(exercise.preload, min(jobs or cpus, cpus))
