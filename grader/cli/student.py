"""Commands for students: grade a script (the default command), list and show exercises."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from ..render import FORMATS
from .base import (
    cases_option,
    cli,
    jobs_option,
    open_sandbox,
    resolve_root,
    root_option,
    sandbox_option,
    timeout_option,
)


@cli.command()
@click.argument("exercise")
@click.argument("submission", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", "rich", *FORMATS]),
    default="auto",
    show_default=True,
    help="auto: rich on a terminal, plain when piped or NO_COLOR is set. github: annotations, "
    "plus a Markdown table appended to $GITHUB_STEP_SUMMARY when that is set.",
)
@click.option(
    "--output",
    "-o",
    "output",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write the report to this file instead of stdout.",
)
@cases_option
@timeout_option
@jobs_option("Cases")
@sandbox_option
@root_option
def check(
    exercise: str,
    submission: Path,
    fmt: str,
    cases_dir: Path | None,
    timeout: float | None,
    jobs: int | None,
    sandbox_mode: str,
    root: Path | None,
    output: Path | None,
) -> None:
    """Grade SUBMISSION (a Python script) on EXERCISE's cases."""
    from ..grading import check_submission, exercise_cases, grade, secret_folders
    from ..spec import load_exercise

    spec = load_exercise(exercise, resolve_root(root))
    cases = exercise_cases(spec, cases_dir)
    check_submission(submission)
    runner = open_sandbox(sandbox_mode, secret_folders(spec, cases_dir)).run
    report = grade(spec, submission, cases=cases, timeout_s=timeout, jobs=jobs, runner=runner)
    _emit(report, fmt, output)
    sys.exit(report.exit_code)


def _emit(report: Any, fmt: str, output: Path | None) -> None:
    if fmt == "github" and os.environ.get("GITHUB_STEP_SUMMARY"):
        from ..render.github import render_github_summary

        with open(os.environ["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as summary:
            summary.write(render_github_summary(report))
    if fmt == "auto":
        terminal = output is None and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        fmt = "rich" if terminal else "plain"
    if fmt == "rich" and output is None:
        from rich.console import Console

        from ..render.text import render_text

        Console(highlight=False, soft_wrap=True).print(render_text(report), end="")
        return
    from ..render import renderer

    text = renderer("plain" if fmt == "rich" else fmt)(report)
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


@cli.command("list")
@root_option
def list_exercises(root: Path | None) -> None:
    """List the exercises with their titles."""
    from ..spec import exercise_names, load_exercise

    where = resolve_root(root)
    names = exercise_names(where)
    width = max((len(n) for n in names), default=0)
    for name in names:
        click.echo(f"{name:<{width}}  {load_exercise(name, where).title}")


@cli.command()
@click.argument("exercise")
@root_option
def show(exercise: str, root: Path | None) -> None:
    """Print EXERCISE's statement and its sample cases."""
    from ..grading import exercise_cases
    from ..spec import Visibility, load_exercise

    spec = load_exercise(exercise, resolve_root(root))
    click.echo(f"{spec.title} ({spec.name})\n")
    click.echo(spec.statement.rstrip() + "\n")
    for case in exercise_cases(spec):
        if case.sample and case.visibility is Visibility.VISIBLE:
            click.echo(f"Sample: {case.title} ({case.name})")
            click.echo("  input:")
            click.echo(_indent(case.input.decode("utf-8", errors="replace")))
            click.echo("  output:")
            click.echo(_indent(case.expected))


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" for line in text.rstrip("\n").split("\n")) + "\n"
