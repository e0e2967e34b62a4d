"""The ``grade`` command: parse, call the library, render, exit. No grading logic lives here."""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from . import __version__
from .errors import ExitCode, GraderError
from .render import FORMATS
from .resources import ROOT_ENV, Root, find_root

DEFAULT_COMMAND = "check"
F = TypeVar("F", bound=Callable[..., Any])


class DefaultGroup(click.Group):
    """``grade EX FILE`` means ``grade check EX FILE``; domain errors become one line each."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h", "--version"):
            args = [DEFAULT_COMMAND, *args]
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except GraderError as exc:
            click.echo(f"grade: error: {exc}", err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("grade: interrupted", err=True)
            ctx.exit(130)


root_option = click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    envvar=ROOT_ENV,
    help=f"Folder with exercises/ and cases/ (default: this checkout, else the bundled ones). "
    f"Env: {ROOT_ENV}.",
)


def _root(root: Path | None) -> Root:
    return find_root(root, environ={})


sandbox_option = click.option(
    "--sandbox",
    "sandbox_mode",
    type=click.Choice(["strict", "auto", "off"]),
    default="auto",
    show_default=True,
    help="strict: every isolation layer or refuse to run (for CI); auto: what this machine "
    "offers, saying what is missing; off: limits and a clean environment only.",
)


cases_option = click.option(
    "--cases",
    "cases_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Grade against this folder of NAME.in/NAME.out pairs instead (e.g. hidden cases).",
)
timeout_option = click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    help="Seconds per case, overriding the exercise's limit.",
)


def jobs_option(what: str) -> Callable[[F], F]:
    return click.option(
        "--jobs",
        "-j",
        type=click.IntRange(min=1),
        help=f"{what} run in parallel  [default: number of CPUs]",
    )


def _sandbox(mode: str, hide: list[Path]) -> Any:
    from .sandbox import Sandbox, SandboxMode

    sandbox = Sandbox.create(SandboxMode(mode), hide=hide)
    notice = sandbox.notice()
    if notice:
        click.echo(f"grade: {notice}", err=True)
    return sandbox


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="grade")
def cli() -> None:
    """Grade a Python script against an exercise's cases.

    \b
      grade quantize my.py              grade my.py (same as: grade check quantize my.py)
      grade quantize my.py --format json
      grade list                        the exercises
      grade show quantize               the statement and sample cases

    Exit status: 0 all cases passed, 1 some case failed, 2 usage error,
    3 broken exercise definition, 4 grader error.
    """


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
    from .grading import check_submission, exercise_cases, grade, secret_folders
    from .spec import load_exercise

    spec = load_exercise(exercise, _root(root))
    cases = exercise_cases(spec, cases_dir)
    check_submission(submission)
    runner = _sandbox(sandbox_mode, secret_folders(spec, cases_dir)).run
    report = grade(spec, submission, cases=cases, timeout_s=timeout, jobs=jobs, runner=runner)
    _emit(report, fmt, output)
    sys.exit(report.exit_code)


def _emit(report: Any, fmt: str, output: Path | None) -> None:
    if fmt == "github" and os.environ.get("GITHUB_STEP_SUMMARY"):
        from .render.github import render_github_summary

        with open(os.environ["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as summary:
            summary.write(render_github_summary(report))
    if fmt == "auto":
        terminal = output is None and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        fmt = "rich" if terminal else "plain"
    if fmt == "rich" and output is None:
        from rich.console import Console

        from .render.text import render_text

        Console(highlight=False, soft_wrap=True).print(render_text(report), end="")
        return
    from .render import renderer

    text = renderer("plain" if fmt == "rich" else fmt)(report)
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


@cli.command("list")
@root_option
def list_exercises(root: Path | None) -> None:
    """List the exercises with their titles."""
    from .spec import exercise_names, load_exercise

    where = _root(root)
    names = exercise_names(where)
    width = max((len(n) for n in names), default=0)
    for name in names:
        click.echo(f"{name:<{width}}  {load_exercise(name, where).title}")


@cli.command()
@click.argument("exercise")
@root_option
def show(exercise: str, root: Path | None) -> None:
    """Print EXERCISE's statement and its sample cases."""
    from .grading import exercise_cases
    from .spec import Visibility, load_exercise

    spec = load_exercise(exercise, _root(root))
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


@cli.command()
@click.argument("exercise")
@click.option(
    "--check", "check_only", is_flag=True, help="Only report; exit 1 if any would change."
)
@sandbox_option
@root_option
def regen(exercise: str, check_only: bool, sandbox_mode: str, root: Path | None) -> None:
    """Recompute EXERCISE's expected outputs (.out files) from the reference solution."""
    from .expected import stale_outputs
    from .grading import secret_folders
    from .spec import load_exercise

    spec = load_exercise(exercise, _root(root))
    stale = stale_outputs(spec, runner=_sandbox(sandbox_mode, secret_folders(spec)).run)
    for item in stale:
        if check_only:
            diff = difflib.unified_diff(
                (item.current or "").splitlines(keepends=True),
                item.fresh.splitlines(keepends=True),
                fromfile=str(item.path) if item.current is not None else "/dev/null",
                tofile=f"{item.path} (reference)",
            )
            click.echo("".join(diff), nl=False)
        else:
            item.path.write_text(item.fresh, encoding="utf-8")
            click.echo(f"wrote {item.path}")
    if check_only and stale:
        click.echo(
            f"{len(stale)} expected output(s) are stale; run: grade regen {exercise}", err=True
        )
        sys.exit(ExitCode.FAILED)
    if not stale:
        click.echo(f"{exercise}: every expected output matches the reference", err=True)


@cli.command()
@click.argument("exercise")
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--csv",
    "csv_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the gradebook as CSV: one row per submission, a column per case.",
)
@click.option(
    "--json",
    "json_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the gradebook as JSON: every report (for grade merge).",
)
@click.option("--shard", help="Grade only the K-th of N deterministic slices, e.g. 2/4.")
@cases_option
@timeout_option
@jobs_option("Submissions")
@sandbox_option
@root_option
def batch(
    exercise: str,
    paths: tuple[str, ...],
    csv_file: Path | None,
    json_file: Path | None,
    shard: str | None,
    cases_dir: Path | None,
    timeout: float | None,
    jobs: int | None,
    sandbox_mode: str,
    root: Path | None,
) -> None:
    """Grade many submissions of EXERCISE: files, folders or quoted globs.

    \b
    A file is one submission. A folder holding one .py file is one submission,
    named after the folder. Any other folder is a class: each sub-folder and
    file in it is one submission. Exit status: 0 when every submission got a
    row (whatever its score), 4 on a grader error, 130 when interrupted.
    """
    from . import batch as batching
    from . import gradebook
    from .grading import exercise_cases, secret_folders
    from .render.progress import batch_progress
    from .spec import load_exercise

    spec = load_exercise(exercise, _root(root))
    cases = exercise_cases(spec, cases_dir)
    found = batching.discover(paths)
    if shard is not None:
        found = batching.shard(found, *batching.parse_shard(shard))
    sandbox = _sandbox(sandbox_mode, secret_folders(spec, cases_dir))
    with batch_progress(len(found), sys.stderr) as on_done:
        book = batching.grade_batch(
            spec,
            found,
            cases=cases,
            runner=sandbox.run,
            jobs=jobs or os.cpu_count() or 1,
            timeout_s=timeout,
            shard_label=shard,
            on_done=on_done,
            cancel=sandbox.cancel,
        )
    data = gradebook.gradebook_dict(book)
    if json_file is not None:
        json_file.write_text(gradebook.dump(data), encoding="utf-8")
    if csv_file is not None:
        csv_file.write_text(gradebook.csv_text(data), encoding="utf-8")
    click.echo(gradebook.summary_text(data), nl=False)
    if book.interrupted:
        click.echo(
            f"grade: interrupted: kept {len(book.entries)} of {len(found)} submissions", err=True
        )
        sys.exit(130)
    grader_errors = any(
        e.report is not None and e.report.exit_code == ExitCode.GRADER_ERROR for e in book.entries
    )
    sys.exit(ExitCode.GRADER_ERROR if grader_errors else ExitCode.OK)


@cli.command()
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.argument(
    "inputs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--csv",
    "csv_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the merged gradebook as CSV.",
)
def merge(out: Path, inputs: tuple[Path, ...], csv_file: Path | None) -> None:
    """Join the JSON gradebooks of grade batch --shard runs into OUT."""
    from . import gradebook

    merged = gradebook.merge([gradebook.read(p) for p in inputs])
    out.write_text(gradebook.dump(merged), encoding="utf-8")
    if csv_file is not None:
        csv_file.write_text(gradebook.csv_text(merged), encoding="utf-8")
    click.echo(f"{out}: {len(merged['submissions'])} submissions from {len(inputs)} gradebooks")


@cli.command("verify")
@click.argument("exercises", nargs=-1)
@sandbox_option
@root_option
def verify_command(exercises: tuple[str, ...], sandbox_mode: str, root: Path | None) -> None:
    """Check exercises like Kattis's verifyproblem (default: all of them).

    \b
    The spec parses strictly; every case has both files and its metadata; every
    input passes validate.py; the reference passes every case twice with the same
    output, leaving a time margin (warns under 3x); every known-wrong solution in
    reference/NAME/wrong/ fails with the verdict it declares; every .out is what the
    reference prints. Exit 0 only when all hold.
    """
    from .render.verify import render_verification
    from .spec import exercise_names
    from .verify import verify

    where = _root(root)
    names = exercises or exercise_names(where)
    # one sandbox for all: it hides every exercise's cases and the whole reference/ folder
    runner = _sandbox(sandbox_mode, [where.cases, where.reference]).run
    results = [verify(name, where, runner=runner) for name in names]
    click.echo("\n".join(render_verification(r) for r in results), nl=False)
    sys.exit(ExitCode.OK if all(r.ok for r in results) else ExitCode.FAILED)


@cli.command("add-case")
@click.argument("exercise")
@click.argument("name")
@click.option(
    "--input", "input_file", type=click.File("rb"), help="The case's input: a file, or - for stdin."
)
@click.option("--random", "seed", type=int, help="Generate the input with generate.py SEED.")
@click.option(
    "--size",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="The size passed to generate.py with --random.",
)
@click.option("--title", help="The title students see.")
@click.option("--hint", help="A hint shown when the case fails.")
@click.option("--hidden", is_flag=True, help="Hide the case's input and outputs from students.")
@click.option("--points", type=click.FloatRange(min=0), help="Points for the case (default 1).")
@click.option("--force", is_flag=True, help="Replace a case of the same name.")
@sandbox_option
@root_option
def add_case_command(
    exercise: str,
    name: str,
    input_file: Any,
    seed: int | None,
    size: int,
    title: str | None,
    hint: str | None,
    hidden: bool,
    points: float | None,
    force: bool,
    sandbox_mode: str,
    root: Path | None,
) -> None:
    """Add case NAME to EXERCISE: its output comes from running the reference on it."""
    from .authoring import add_case
    from .errors import UsageError
    from .grading import secret_folders
    from .material import generate, material
    from .spec import load_exercise

    spec = load_exercise(exercise, _root(root))
    if (input_file is None) == (seed is None):
        raise UsageError("give the input with exactly one of --input FILE (or -) and --random SEED")
    data = input_file.read() if seed is None else generate(material(spec), seed, size)
    runner = _sandbox(sandbox_mode, secret_folders(spec)).run
    case = add_case(
        spec,
        name,
        data,
        runner=runner,
        title=title,
        hint=hint,
        hidden=hidden,
        points=points,
        force=force,
    )
    click.echo(f"added {spec.cases_dir / case.name}.in and .out; the reference prints:", err=True)
    click.echo(case.expected, nl=False)


@cli.command("new")
@click.argument("exercise")
@sandbox_option
@root_option
def new_command(exercise: str, sandbox_mode: str, root: Path | None) -> None:
    """Scaffold EXERCISE: spec, reference, validator, generator, a wrong solution, a case."""
    from .authoring import new_exercise

    where = _root(root)
    runner = _sandbox(sandbox_mode, [where.cases / exercise, where.reference]).run
    written = new_exercise(exercise, where, runner=runner)
    click.echo(f"created exercise {exercise}:")
    for path in written:
        click.echo(f"  {path.relative_to(where.path)}")
    click.echo(NEXT_STEPS.format(name=exercise))


NEXT_STEPS = """
It works as it is (a sum problem): grade verify {name}
Next steps:
  1. Write the statement, limits and comparison in exercises/{name}.yaml.
  2. Write the reference solution in reference/{name}/solution.py.
  3. Make reference/{name}/validate.py accept exactly the valid inputs, and
     reference/{name}/generate.py print a random one for a seed.
  4. Add cases: grade add-case {name} NAME --input FILE --title "..." --hint "..."
     or a random one: grade add-case {name} NAME --random SEED --size N
     then remove the sample: cases/{name}/01-sample.* and its metadata.
  5. Put a known-wrong solution per classic mistake in reference/{name}/wrong/,
     its docstring saying "Known wrong: <the mistake>" and "expect: <verdict>".
  6. grade verify {name}, until every row says ok."""


def main() -> None:
    cli(prog_name="grade")
