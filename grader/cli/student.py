"""Commands for students: grade a script (the default command), list and show exercises."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ..render import FORMATS
from .base import (
    cases_option,
    cli,
    jobs_option,
    load,
    plan_for,
    resolve_root,
    root_option,
    sandbox_option,
    timeout_option,
)
from .output import emit


@cli.command()
@click.argument("exercise")
@click.argument("submission", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", *FORMATS]),
    default="auto",
    show_default=True,
    help="auto: rich on a terminal, plain when piped or NO_COLOR is set. github: annotations, "
    "plus a Markdown table appended to $GITHUB_STEP_SUMMARY when that is set.",
)
@click.option(
    "--output",
    "-o",
    "output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report to this file (atomically) instead of stdout.",
)
@cases_option
@timeout_option
@jobs_option
@sandbox_option
@root_option
def check(
    exercise: str,
    submission: Path,
    fmt: str,
    cases_dir: Path | None,
    timeout: float | None,
    jobs: int | None,
    sandbox_mode: str | None,
    root: Path | None,
    output: Path | None,
) -> None:
    """Grade SUBMISSION (a Python script) on EXERCISE's cases."""
    from ..files import refuse_overwriting
    from ..grading import check_submission, grade

    spec = load(exercise, root)
    refuse_overwriting([output], [check_submission(submission)], "the submission")
    plan = plan_for(
        spec, sandbox_mode=sandbox_mode, cases_dir=cases_dir, timeout=timeout, jobs=jobs
    )
    feedback = grade(plan, submission).feedback()
    emit(feedback, fmt, output=output, environ=os.environ)
    sys.exit(feedback.exit_code)


@cli.command("list")
@root_option
def list_exercises(root: Path | None) -> None:
    """List the exercises with their titles (a broken one is reported, the others listed)."""
    from ..errors import ExerciseError, ExitCode
    from ..spec import exercise_names, load_exercise

    where = resolve_root(root)
    names = exercise_names(where)
    width = max((len(n) for n in names), default=0)
    broken = 0
    for name in names:
        try:
            title = load_exercise(name, where).title
        except ExerciseError as exc:
            click.echo(f"grade: error: {exc}", err=True)
            broken += 1
            continue
        click.echo(f"{name:<{width}}  {title}")
    if broken:
        sys.exit(ExitCode.BROKEN_EXERCISE)


@cli.command()
@click.argument("exercise")
@root_option
def show(exercise: str, root: Path | None) -> None:
    """Print EXERCISE's statement and its sample cases."""
    from ..cases import exercise_cases
    from ..records import SHOWS_DETAILS
    from ..spec import load_exercise
    from ..text import decode

    spec = load_exercise(exercise, resolve_root(root))
    click.echo(f"{spec.title} ({spec.name})\n")
    click.echo(spec.statement.rstrip() + "\n")
    for case in exercise_cases(spec):
        if case.sample and SHOWS_DETAILS[case.visibility]:
            click.echo(f"Sample: {case.title} ({case.name})")
            click.echo("  input:")
            click.echo(_indent(decode(case.input)))
            click.echo("  output:")
            click.echo(_indent(case.expected))


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" for line in text.rstrip("\n").split("\n")) + "\n"
