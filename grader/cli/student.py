"""Commands for students: grade a script (the default command), list and show exercises."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..render import FORMATS
from .base import (
    cases_option,
    cli,
    complete_exercises,
    isolation_option,
    jobs_option,
    load,
    loaded_early,
    resolve_root,
    root_option,
    sandbox_option,
    say,
    timeout_option,
    with_grading,
)

if TYPE_CHECKING:
    from ..commands.checking import Check
    from ..commands.options import GradingOptions
    from ..judging.records import Feedback
    from ..running.submissions import Submission
    from .live import Live


@cli.command()
@click.argument("exercise", shell_complete=complete_exercises)
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
@click.option(
    "-k",
    "keywords",
    multiple=True,
    metavar="TEXT",
    help="Only the cases whose name or title contains TEXT (repeatable: any of them).",
)
@click.option(
    "-x", "--exitfirst", "exitfirst", is_flag=True, help="Stop at the first case that fails."
)
@click.option(
    "--lf",
    "--last-failed",
    "last_failed",
    is_flag=True,
    help="Only the cases that failed the last time this file was graded (all if none did).",
)
@click.option("-q", "--quiet", is_flag=True, help="One line per case; the first failure in full.")
@click.option("-v", "--verbose", is_flag=True, help="Every detail of every case, passes too.")
@click.option(
    "--diff", is_flag=True, help="A failing case's expected and actual output in full, as a diff."
)
@click.option(
    "--fuzz",
    "fuzz_count",
    type=click.IntRange(min=1),
    metavar="N",
    help="Then N random inputs from the exercise's generator against the reference (teacher's "
    "copy or CI); the first disagreement is shrunk to a minimal input.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="The --fuzz seed.")
@click.option(
    "--save-case", "save_case", metavar="NAME", help="Add the input --fuzz found as case NAME."
)
@click.option(
    "--watch",
    is_flag=True,
    help="Grade again whenever the file is saved, until Ctrl-C (needs: pip install watchfiles).",
)
@cases_option
@timeout_option
@jobs_option
@isolation_option
@sandbox_option
@root_option
@with_grading
def check(
    exercise: str,
    submission: Path,
    grading: GradingOptions,
    root: Path | None,
    fmt: str,
    output: Path | None,
    quiet: bool,
    verbose: bool,
    diff: bool,
    watch: bool,
    **chosen: Any,
) -> None:
    """Grade SUBMISSION (a Python script) on EXERCISE's cases.

    \b
    A report on the terminal (or piped, in plain text) is printed as it goes: each
    case as soon as it is done.
    """
    spec = loaded_early(exercise, root, grading)
    from ..commands.checking import CheckOptions, start_check

    shown = _Shown.chosen(fmt, output, quiet, verbose, diff)
    options = CheckOptions(**chosen)
    check = start_check(
        spec or load(exercise, root),
        submission,
        options,
        grading,
        say=say,
        report_file=output,
        root=root,
        verbose=verbose,
    )
    scripts = [check.first]  # read once, before any run; --watch reads each new version once

    def once() -> Feedback:
        return _grade_and_show(check, scripts.pop() if scripts else check.read(), shown)

    if watch:
        from .watch import watch_and_regrade

        watch_and_regrade(submission, once)  # until Ctrl-C
    sys.exit(int(once().exit_code))  # a fuzz finding fails the report, and so the exit status


@dataclass(frozen=True)
class _Shown:
    """How grade check shows its report: which format, where, in how much detail."""

    fmt: str
    output: Path | None
    verbosity: int  # -1 for -q, 1 for -v
    diff: bool

    @classmethod
    def chosen(
        cls, fmt: str, output: Path | None, quiet: bool, verbose: bool, diff: bool
    ) -> _Shown:
        from ..judging.errors import UsageError

        if quiet and verbose:
            raise UsageError("-q and -v ask for opposite things: give one")
        return cls(fmt, output, -1 if quiet else 1 if verbose else 0, diff)


def _grade_and_show(check: Check, script: Submission, shown: _Shown) -> Feedback:
    """One grading of ``script``: printed as it goes on a terminal or pipe, else written whole."""
    live = _live(shown, check)
    try:
        report = check.grade(script, say=say, **_hooks(live, check))
    except BaseException:
        if live is not None:
            live.stop()  # the terminal is left clean
        raise
    feedback = report.feedback()
    if live is not None:
        if feedback.fuzz is not None:  # the rest was printed as it went
            live.fuzz(feedback.fuzz)
        return feedback
    from .output import emit

    emit(
        feedback,
        shown.fmt,
        output=shown.output,
        environ=os.environ,
        verbosity=shown.verbosity,
        diff=shown.diff,
    )
    return feedback


def _hooks(live: Live | None, check: Check) -> dict[str, Any]:
    """What the printer as-it-goes hears of a grading: the header, each case, the summary."""
    if live is None:
        return {}
    from ..judging.printed import path_text

    shown = path_text(check.first.path)
    return {
        "on_start": partial(live.start, check.plan.exercise.name, shown),
        "on_case": live.on_case,
        "on_cases": partial(live.finish, selected=check.selected),
    }


def _live(shown: _Shown, check: Check) -> Live | None:
    """The printer as-it-goes, for a human report on stdout; None for any other."""
    if shown.output is not None or shown.fmt not in ("auto", "rich", "plain"):
        return None
    from ..render import choose
    from .live import Live  # rich: ~50 ms that a JSON report does without

    tty, no_color = sys.stdout.isatty(), bool(os.environ.get("NO_COLOR"))
    chosen = choose(shown.fmt, to_terminal=tty, no_color=no_color)
    return Live(
        [c.title for c in check.plan.cases],
        color=chosen == "rich",
        verbosity=shown.verbosity,
        diff=shown.diff,
        out=sys.stdout,
        status=sys.stderr if sys.stderr.isatty() else None,
        limit_s=check.plan.limits.time_s,
        tip_exitfirst=tty and not check.plan.stop_after_failure,
    )


@cli.command("list")
@root_option
def list_exercises(root: Path | None) -> None:
    """List the exercises with their titles (a broken one is reported, the others listed)."""
    from ..judging.errors import ExerciseError, ExitCode
    from ..model.spec import exercise_names, load_exercise

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
@click.argument("exercise", shell_complete=complete_exercises)
@click.option(
    "--samples",
    "samples_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Also write the sample cases into this folder, as NAME.in and NAME.out.",
)
@root_option
def show(exercise: str, samples_dir: Path | None, root: Path | None) -> None:
    """Print EXERCISE's statement and its sample cases."""
    from ..files import write_atomically
    from ..judging.printed import decode
    from ..judging.records import SHOWS_DETAILS
    from ..model.cases import case_files, exercise_cases
    from ..model.spec import load_exercise

    spec = load_exercise(exercise, resolve_root(root))
    click.echo(f"{spec.title} ({spec.name})\n")
    click.echo(spec.statement.rstrip() + "\n")
    samples = [c for c in exercise_cases(spec) if c.sample and SHOWS_DETAILS[c.visibility]]
    for case in samples:
        click.echo(f"Sample: {case.title} ({case.name})")
        click.echo("  input:")
        click.echo(_indent(decode(case.input)))
        click.echo("  output:")
        click.echo(_indent(case.expected))
    if samples_dir is not None:
        samples_dir.mkdir(parents=True, exist_ok=True)
        for case in samples:
            input_file, output_file = case_files(samples_dir, case.name)
            write_atomically(input_file, case.input)
            write_atomically(output_file, case.expected)
            click.echo(f"wrote {(samples_dir / case.name).absolute()}.in and .out", err=True)


@cli.command("run")
@click.argument("exercise", shell_complete=complete_exercises)
@click.argument("submission", type=click.Path(path_type=Path))
@click.option(
    "--input",
    "input_file",
    type=click.File("rb"),
    help="The input to give it: a file, or - for stdin (the default when stdin is piped).",
)
@timeout_option
@sandbox_option
@root_option
@with_grading
def run_command(
    exercise: str, submission: Path, input_file: Any, grading: GradingOptions, root: Path | None
) -> None:
    """Run SUBMISSION on an input of your own, in the same sandbox and limits as grading.

    Shows its output; where the exercise's reference solution is at hand (a teacher's
    copy), also the reference's output and how the two compare.
    """
    from ..commands.trying import try_one
    from ..render.escape import log_safe

    tried = try_one(load(exercise, root), submission, partial(_input, input_file), grading, say=say)
    if tried.invalid:
        say(f"note: this input is outside the statement: {tried.invalid}")
    click.echo(log_safe(tried.render()), nl=False)
    sys.exit(tried.exit_code)


def _input(given: Any) -> bytes:
    """--input's file, else stdin when it is piped."""
    from ..judging.errors import UsageError

    if given is None:
        if sys.stdin.isatty():
            raise UsageError("give the input with --input FILE, or pipe it: grade run EX FILE < in")
        given = sys.stdin.buffer
    data: bytes = given.read()
    return data


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" for line in text.rstrip("\n").split("\n")) + "\n"
