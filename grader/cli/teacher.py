"""Commands for teachers: ``regen``, ``verify``, ``add-case`` and ``new``."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path
from typing import Any

import click

from ..errors import ExitCode
from .base import cli, resolve_root, root_option, sandbox_option, teacher_sandbox


@cli.command()
@click.argument("exercise")
@click.option(
    "--check", "check_only", is_flag=True, help="Only report; exit 1 if any would change."
)
@sandbox_option
@root_option
def regen(exercise: str, check_only: bool, sandbox_mode: str, root: Path | None) -> None:
    """Recompute EXERCISE's expected outputs (.out files) from the reference solution."""
    from ..expected import regenerate, stale_outputs
    from ..spec import load_exercise

    where = resolve_root(root)
    spec = load_exercise(exercise, where)
    runner = teacher_sandbox(where, sandbox_mode).run
    matches = f"{exercise}: every expected output matches the reference"
    if not check_only:
        written = regenerate(spec, runner=runner)
        for item in written:
            click.echo(f"wrote {item.path}")
        if not written:
            click.echo(matches, err=True)
        return
    stale = stale_outputs(spec, runner=runner)
    for item in stale:
        diff = difflib.unified_diff(
            (item.current or "").splitlines(keepends=True),
            item.fresh.splitlines(keepends=True),
            fromfile=str(item.path) if item.current is not None else "/dev/null",
            tofile=f"{item.path} (reference)",
        )
        click.echo("".join(diff), nl=False)
    if stale:
        click.echo(
            f"{len(stale)} expected output(s) are stale; run: grade regen {exercise}", err=True
        )
        sys.exit(ExitCode.FAILED)
    click.echo(matches, err=True)


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
    from ..spec import exercise_names
    from ..verify import verify

    where = resolve_root(root)
    names = exercises or exercise_names(where)
    sandbox = teacher_sandbox(where, sandbox_mode)
    results = [verify(name, where, sandbox=sandbox) for name in names]
    click.echo("\n".join(r.table() for r in results), nl=False)
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
    from ..authoring import add_case
    from ..errors import UsageError
    from ..material import generate, material
    from ..spec import load_exercise

    where = resolve_root(root)
    spec = load_exercise(exercise, where)
    if (input_file is None) == (seed is None):
        raise UsageError("give the input with exactly one of --input FILE (or -) and --random SEED")
    data = input_file.read() if seed is None else generate(material(spec), seed, size)
    runner = teacher_sandbox(where, sandbox_mode).run
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
    from ..authoring import new_exercise

    where = resolve_root(root)
    written = new_exercise(exercise, where, runner=teacher_sandbox(where, sandbox_mode).run)
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
