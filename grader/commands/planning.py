"""The options every grading command shares, and the one way a command turns them into a plan.

An option left out takes the course's setting (grade.toml), else the built-in default: decided
here for check, run, batch and the teacher's commands alike.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from ..judging.errors import UsageError
from ..judging.printed import path_text
from ..model.cases import secret_cases_elsewhere
from ..model.resources import Root, RootKind
from ..model.spec import Exercise
from ..render.escape import safe
from ..running.plan import Plan, open_sandbox, prepare
from ..sandbox import Sandbox, SandboxMode
from .notices import sandbox_line
from .options import GradingOptions, start_servers

Say = Callable[[str], None]  # where a command's one-line notices go (stderr, at the CLI)


def sandbox_mode(chosen: SandboxMode | None, where: Root) -> SandboxMode:
    return chosen or SandboxMode(where.config.sandbox or "auto")


def plan_for(
    exercise: Exercise,
    options: GradingOptions,
    *,
    say: Say,
    submissions: Sequence[Path] = (),
    verbose: bool = False,
    environ: Mapping[str, str] | None = None,
) -> Plan:
    """Prepare EXERCISE's grading of ``submissions``; say once which course grades them (where
    it was found by walking up), what the sandbox lacks on this machine and which secret cases
    are not here."""
    config = exercise.root.config
    mode = sandbox_mode(options.sandbox_mode, exercise.root)
    refuse_own_course(exercise, submissions, mode)
    jobs = options.jobs or config.jobs
    start_servers(exercise, options)  # where the caller has not already
    plan = prepare(
        exercise,
        cases_dir=options.cases_dir,
        mode=mode,
        timeout_s=options.timeout_s,
        jobs=jobs,
        isolation=options.isolation,
    )
    root = exercise.root
    if root.kind is RootKind.COURSE:  # found by walking up: say which, it may not be the one meant
        # the name is the course's, which may be a student's own grade.toml: one line of data
        say(f"graded by the course {safe(root.name)} at {path_text(root.path)} (its grade.toml)")
    if plan.sandbox is not None:
        say_sandbox(plan.sandbox, say=say, verbose=verbose, environ=environ)
    if options.cases_dir is None:
        elsewhere = secret_cases_elsewhere(exercise)
        if elsewhere:
            say(f"{elsewhere} secret case(s) of {exercise.name} are not here: CI grades them")
    return plan


def refuse_own_course(exercise: Exercise, submissions: Sequence[Path], mode: SandboxMode) -> None:
    """Strict grading refuses a course found inside a submission's own folder tree: a student's
    repository committing a grade.toml and one easy case would grade itself (--root names the
    course to use)."""
    root = exercise.root
    if mode is not SandboxMode.STRICT or root.kind is not RootKind.COURSE:
        return
    for submission in submissions:
        folder = submission.resolve().parent
        if folder == root.path or root.path in folder.parents:
            raise UsageError(
                f"--sandbox strict: the course at {root.path} holds the submission {submission}; "
                "a submission's own folder cannot bring the course that grades it (pass --root)"
            )


def teacher_sandbox(where: Root, chosen: SandboxMode | None, *, say: Say) -> Sandbox:
    """The sandbox for running a root's references and solutions; says what it lacks here."""
    sandbox = open_sandbox(where, mode=sandbox_mode(chosen, where))
    say_sandbox(sandbox, say=say, verbose=False)
    return sandbox


def say_sandbox(
    sandbox: Sandbox, *, say: Say, verbose: bool, environ: Mapping[str, str] | None = None
) -> None:
    line = sandbox_line(
        sandbox, verbose=verbose, environ=os.environ if environ is None else environ
    )
    if line:
        say(line)
