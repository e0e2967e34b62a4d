"""``grade run``: a script run on an input of the user's own, in the grading's sandbox."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ..model.spec import Exercise
from ..running.submissions import check_submission
from ..teacher.playground import Tried, try_input
from .options import GradingOptions
from .planning import Say, plan_for


def try_one(
    exercise: Exercise,
    submission: Path,
    read_input: Callable[[], bytes],
    grading: GradingOptions,
    *,
    say: Say,
) -> Tried:
    """Run ``submission`` once on what ``read_input`` gives, read after the script (a script
    grading would refuse, this refuses the same way, before asking for any input)."""
    script = check_submission(submission, exercise.root.config.max_submission_bytes)
    removed = script.cells.notice() if script.cells is not None else None
    if removed is not None:
        say(removed)
    data = read_input()
    plan = plan_for(exercise, replace(grading, jobs=1), say=say)
    return try_input(plan, script, data)
