"""Commands for students: grade a script (the default command), list and show exercises."""

from __future__ import annotations

import os
import sys
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
    plan_for,
    resolve_root,
    root_option,
    sandbox_option,
    timeout_option,
)

if TYPE_CHECKING:
    from ..judging.records import Feedback, FuzzOutcome
    from ..model.material import Material
    from ..model.spec import Exercise
    from ..running.plan import Plan
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
def check(
    exercise: str,
    submission: Path,
    fmt: str,
    keywords: tuple[str, ...],
    exitfirst: bool,
    last_failed: bool,
    quiet: bool,
    verbose: bool,
    diff: bool,
    fuzz_count: int | None,
    seed: int,
    save_case: str | None,
    watch: bool,
    cases_dir: Path | None,
    timeout: float | None,
    jobs: int | None,
    isolation: str,
    sandbox_mode: str | None,
    root: Path | None,
    output: Path | None,
) -> None:
    """Grade SUBMISSION (a Python script) on EXERCISE's cases.

    \b
    A report on the terminal (or piped, in plain text) is printed as it goes: each
    case as soon as it is done.
    """
    from dataclasses import replace
    from functools import partial

    from ..files import refuse_overwriting
    from ..judging.errors import UsageError
    from ..judging.printed import path_text
    from ..running import selection
    from ..running.grading import grade
    from ..running.submissions import check_submission

    if quiet and verbose:
        raise UsageError("-q and -v ask for opposite things: give one")
    if save_case is not None and fuzz_count is None:
        raise UsageError("--save-case keeps what --fuzz finds: give --fuzz N too")
    verbosity = -1 if quiet else 1 if verbose else 0
    spec = load(exercise, root)
    limit = spec.root.config.max_submission_bytes
    # read once, before any run, and that text graded; --watch reads each new version once
    unread = [check_submission(submission, limit)]
    refuse_overwriting([output], [unread[0].path], "the submission")
    plan = plan_for(
        spec,
        sandbox_mode=sandbox_mode,
        cases_dir=cases_dir,
        timeout=timeout,
        jobs=jobs,
        isolation=isolation,
        submissions=[submission],
        verbose=verbosity > 0,
    )
    cases = selection.select(plan.cases, keywords)
    if last_failed:
        failed = selection.last_failed(spec.name, submission, environ=os.environ)
        cases, note = selection.only_failed(cases, failed)
        if note:
            click.echo(f"grade: {note}", err=True)
    selected = "" if len(cases) == len(plan.cases) else f"; {len(cases)} of {len(plan.cases)} cases"
    plan = replace(plan, cases=cases, stop_after_failure=exitfirst)

    def once() -> Feedback:
        live = _live(fmt, output, verbosity, diff, [c.title for c in cases], plan.limits.time_s)
        checked = unread.pop() if unread else check_submission(submission, limit)
        shown = path_text(submission)
        try:
            report = grade(
                plan,
                checked,
                on_start=None if live is None else partial(live.start, spec.name, shown),
                on_case=None if live is None else live.on_case,
            )
        finally:
            if live is not None:
                live.stop()
        if cases_dir is None:  # what failed on other cases says nothing of these
            selection.remember(report, submission, environ=os.environ)
        if live is not None:  # the cases' summary at once; the fuzzing's section follows it
            live.finish(report.feedback(), selected)
        if fuzz_count is not None:  # part of the report: every format carries what it finds
            name = save_case or f"fuzz-{seed}"
            command = _save_case_command(spec.name, shown, fuzz_count, seed, root, timeout, name)
            fuzzed = _fuzz(plan, checked, fuzz_count, seed, save_case, command)
            report = replace(report, fuzz=fuzzed)
        feedback = report.feedback()
        if live is not None:
            if feedback.fuzz is not None:
                live.fuzz(feedback.fuzz)
        else:
            from .output import emit

            emit(feedback, fmt, output=output, environ=os.environ, verbosity=verbosity, diff=diff)
        return feedback

    if fuzz_count is not None:
        _fuzz_material(spec)  # before any case runs: a student's install has no reference
    if watch:
        from .watch import watch_and_regrade

        watch_and_regrade(submission, once)  # until Ctrl-C
    sys.exit(int(once().exit_code))  # a fuzz finding fails the report, and so the exit status


def _fuzz_material(spec: Exercise) -> Material:
    from ..judging.errors import GraderError, UsageError
    from ..model.material import material

    try:
        return material(spec)
    except GraderError:
        raise UsageError(
            f"--fuzz compares with the reference solution, which is not here "
            f"(reference/{spec.name}/ is in the course's checkout, not a student's install)"
        ) from None


def _save_case_command(
    exercise: str,
    submission: str,
    count: int,
    seed: int,
    root: Path | None,
    timeout: float | None,
    name: str,
) -> str:
    """The command that finds the same input again and adds it as a case (a seed finds the same
    input whatever the machine and the number of runs at once)."""
    import shlex

    from ..judging.printed import path_text

    words = ["grade", exercise, submission, "--fuzz", str(count), "--seed", str(seed)]
    if root is not None:
        words += ["--root", path_text(root)]
    if timeout is not None:
        words += ["--timeout", f"{timeout:g}"]
    return shlex.join([*words, "--save-case", name])


def _fuzz(
    plan: Plan, checked: Submission, count: int, seed: int, save_case: str | None, command: str
) -> FuzzOutcome:
    from dataclasses import replace

    from ..judging.printed import path_text
    from ..teacher.fuzz import fuzz

    teacher = _fuzz_material(plan.exercise)
    found = fuzz(plan, teacher, checked, count=count, seed=seed)
    if found.finding is None:
        return found
    if save_case is None:
        return replace(found, save_case=command)
    from ..teacher.authoring import add_case

    added = add_case(plan.exercise, save_case, found.finding.case.input, runner=plan.runner)
    saved = path_text((added.folder / save_case).absolute())
    click.echo(f"grade: saved the input fuzzing found as {saved}.in and .out", err=True)
    return replace(found, save_case=command, saved=saved)


def _live(
    fmt: str, output: Path | None, verbosity: int, diff: bool, titles: list[str], limit_s: float
) -> Live | None:
    """The printer as-it-goes, for a human report on stdout; None for any other."""
    if output is not None or fmt not in ("auto", "rich", "plain"):
        return None
    from ..render import choose
    from .live import Live  # rich: ~50 ms that a JSON report does without

    chosen = choose(fmt, to_terminal=sys.stdout.isatty(), no_color=bool(os.environ.get("NO_COLOR")))
    return Live(
        titles,
        color=chosen == "rich",
        verbosity=verbosity,
        diff=diff,
        out=sys.stdout,
        status=sys.stderr if sys.stderr.isatty() else None,
        limit_s=limit_s,
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
def run_command(
    exercise: str,
    submission: Path,
    input_file: Any,
    timeout: float | None,
    sandbox_mode: str | None,
    root: Path | None,
) -> None:
    """Run SUBMISSION on an input of your own, in the same sandbox and limits as grading.

    Shows its output; where the exercise's reference solution is at hand (a teacher's
    copy), also the reference's output and how the two compare.
    """
    from ..judging.errors import UsageError
    from ..render.escape import log_safe
    from ..running.submissions import check_submission
    from ..teacher.playground import try_input

    spec = load(exercise, root)
    script = check_submission(submission, spec.root.config.max_submission_bytes)
    if input_file is None:
        if sys.stdin.isatty():
            raise UsageError("give the input with --input FILE, or pipe it: grade run EX FILE < in")
        input_file = sys.stdin.buffer
    data = input_file.read()
    plan = plan_for(spec, sandbox_mode=sandbox_mode, timeout=timeout, jobs=1)
    tried = try_input(plan, script, data)
    if tried.invalid:
        click.echo(f"grade: note: this input is outside the statement: {tried.invalid}", err=True)
    click.echo(log_safe(tried.render()), nl=False)
    sys.exit(tried.exit_code)


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" for line in text.rstrip("\n").split("\n")) + "\n"
