"""Commands for teachers: ``regen``, ``verify``, ``add-case`` and ``new``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..judging.errors import ExitCode
from .base import (
    cli,
    complete_exercises,
    resolve_root,
    root_option,
    sandbox_option,
    say,
    teacher_sandbox,
    with_grading,
)

if TYPE_CHECKING:
    from ..commands.options import GradingOptions
    from ..judging.records import Visibility
    from ..model.resources import Root
    from ..sandbox import Sandbox
    from ..teacher.expected import Stale
    from ..teacher.mutants import Survivor

# the names of records.Visibility, written out: importing records costs `grade --help` ~12 ms
# (tests/test_cli.py checks they agree)
VISIBILITIES = ("visible", "hidden", "after_due_date")


@cli.command()
@click.argument("exercise", shell_complete=complete_exercises)
@click.option(
    "--check", "check_only", is_flag=True, help="Only report; exit 1 if any would change."
)
@sandbox_option
@root_option
def regen(exercise: str, check_only: bool, sandbox_mode: str | None, root: Path | None) -> None:
    """Recompute EXERCISE's expected outputs (.out files) from the reference solution, and
    what its known-wrong solutions print on the cases (mistakes.json, for diagnosis)."""
    from ..model.spec import load_exercise
    from ..teacher.expected import refresh_derived, regenerate, stale_derived, stale_outputs

    where = resolve_root(root)
    spec = load_exercise(exercise, where)
    sandbox = teacher_sandbox(where, sandbox_mode)
    if not check_only:
        written = [item.path for item in regenerate(spec, runner=sandbox.run)]
        for path in [*written, *refresh_derived(spec, sandbox)]:
            click.echo(f"wrote {path}")
        if not written:
            click.echo(f"{exercise}: every expected output matches the reference", err=True)
        return
    outputs = stale_outputs(spec, runner=sandbox.run)
    # the derived files come from the loaded cases, and a case without its .out does not load
    missing = any(output.current is None for output in outputs)
    derived = () if missing else stale_derived(spec, sandbox)
    for item in derived:
        click.echo(f"{item.path} is stale: {item.why} (grade regen {exercise})")
    for output in outputs:
        click.echo(_stale_diff(output), nl=False)
    if outputs or derived:
        stale = len(outputs) + len(derived)
        click.echo(f"{stale} file(s) are stale; run: grade regen {exercise}", err=True)
        sys.exit(ExitCode.FAILED)
    click.echo(f"{exercise}: every expected output matches the reference", err=True)


def _stale_diff(item: Stale) -> str:
    import difflib  # here, not at the top: every grade's start paid for it

    diff = difflib.unified_diff(
        (item.current or "").splitlines(keepends=True),
        item.fresh.splitlines(keepends=True),
        fromfile=str(item.path) if item.current is not None else "/dev/null",
        tofile=f"{item.path} (reference)",
    )
    return "".join(diff)


@cli.command("verify")
@click.argument("exercises", nargs=-1, shell_complete=complete_exercises)
@click.option(
    "--clauses",
    "show_clauses",
    is_flag=True,
    help="Also list each clause of the statement (clauses: in the spec) and its cases, and "
    "each known mistake (wrong/) and the public cases that catch it.",
)
@sandbox_option
@root_option
def verify_command(
    exercises: tuple[str, ...], show_clauses: bool, sandbox_mode: str | None, root: Path | None
) -> None:
    """Check exercises like Kattis's verifyproblem (default: all of them).

    \b
    The spec parses strictly; every case has both files and its metadata; every
    input passes validate.py; the reference passes every case twice with the same
    output; every accepted solution passes every case; the slowest of them leaves a
    time margin (warns under 2x or over 10x: judges set 3x); every known-wrong
    solution in reference/NAME/wrong/ fails with the verdict it declares (and warns
    when no public case catches it); every .out is what the reference prints; no
    title, hint or known mistake is cut off mid-sentence. Exit 0 only when all hold.
    """
    from ..model.spec import exercise_names
    from ..teacher.verify import verify

    where = resolve_root(root)
    names = exercises or exercise_names(where)
    sandbox = teacher_sandbox(where, sandbox_mode)
    results = [verify(name, where, sandbox=sandbox) for name in names]
    click.echo("\n".join(r.table() for r in results), nl=False)
    if show_clauses:
        from ..teacher.catching import mistakes_listing
        from ..teacher.clauses import listing

        click.echo("\n" + "\n".join(listing(r.exercise, r.clauses) for r in results), nl=False)
        click.echo(
            "\n" + "\n".join(mistakes_listing(r.exercise, r.caught) for r in results), nl=False
        )
    sys.exit(ExitCode.OK if all(r.ok for r in results) else ExitCode.FAILED)


@cli.command("add-case")
@click.argument("exercise", shell_complete=complete_exercises)
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
@click.option(
    "--secret",
    "--hidden",
    "secret",
    is_flag=True,
    help="Write it to cases/EXERCISE/secret/: never shipped to students, graded by CI.",
)
@click.option("--sample", is_flag=True, help="Show it with the statement (grade show).")
@click.option(
    "--visibility",
    type=click.Choice(VISIBILITIES),
    help="after_due_date: a secret case Gradescope shows once the deadline has passed.",
)
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
    visibility: str | None,
    sandbox_mode: str | None,
    root: Path | None,
    **details: Any,
) -> None:
    """Add case NAME to EXERCISE: its output comes from running the reference on it."""
    from ..judging.errors import UsageError
    from ..model.material import generate, material
    from ..model.spec import load_exercise
    from ..teacher.authoring import add_case

    where = resolve_root(root)
    spec = load_exercise(exercise, where)
    if (input_file is None) == (seed is None):
        raise UsageError("give the input with exactly one of --input FILE (or -) and --random SEED")
    data = input_file.read() if seed is None else generate(material(spec), seed, size)
    sandbox = teacher_sandbox(where, sandbox_mode)
    shown = None if visibility is None else _visibility(visibility)
    case = add_case(spec, name, data, runner=sandbox.run, visibility=shown, **details)
    _refresh_mistakes(exercise, where, sandbox)
    written = (case.folder / case.name).absolute()
    click.echo(f"added {written}.in and .out; the reference prints:", err=True)
    click.echo(case.expected, nl=False)


@cli.command("new")
@click.argument("exercise", shell_complete=complete_exercises)
@sandbox_option
@root_option
def new_command(exercise: str, sandbox_mode: str | None, root: Path | None) -> None:
    """Scaffold EXERCISE: spec, reference, validator, generator, a wrong solution, a case."""
    from ..teacher.authoring import new_exercise

    where = resolve_root(root)
    sandbox = teacher_sandbox(where, sandbox_mode)
    written = new_exercise(exercise, where, runner=sandbox.run, reserved={*cli.commands, "help"})
    written += _refresh_mistakes(exercise, where, sandbox)
    click.echo(f"created exercise {exercise} in {where.path}:")
    for path in written:
        click.echo(f"  {path}")
    click.echo(NEXT_STEPS.format(name=exercise))


@cli.command("rm-case")
@click.argument("exercise", shell_complete=complete_exercises)
@click.argument("name")
@root_option
def rm_case_command(exercise: str, name: str, root: Path | None) -> None:
    """Remove case NAME of EXERCISE: its files and its metadata."""
    from ..model.spec import load_exercise
    from ..teacher.authoring import remove_case

    spec = load_exercise(exercise, resolve_root(root))
    for path in remove_case(spec, name):
        click.echo(f"removed {path.absolute()}")
    click.echo(f"removed case {name} from {exercise}", err=True)


@cli.command("mv-case")
@click.argument("exercise", shell_complete=complete_exercises)
@click.argument("old")
@click.argument("new")
@click.option(
    "--secret/--public",
    "secret",
    default=None,
    help="Also move it to secret/ (never shipped) or public/ (shipped, shown).",
)
@root_option
def mv_case_command(
    exercise: str, old: str, new: str, secret: bool | None, root: Path | None
) -> None:
    """Rename case OLD of EXERCISE to NEW: its files and its metadata together."""
    from ..model.spec import load_exercise
    from ..teacher.authoring import move_case

    spec = load_exercise(exercise, resolve_root(root))
    for path in move_case(spec, old, new, secret=secret):
        click.echo(f"wrote {path.absolute()}")


NEXT_STEPS = """
It works as it is (a sum problem): grade verify {name}
Next steps:
  1. Write the statement, limits and comparison in exercises/{name}.yaml.
  2. Write the reference solution in reference/{name}/solution.py.
  3. Make reference/{name}/validate.py accept exactly the valid inputs, and
     reference/{name}/generate.py print a random one for a seed.
  4. Add cases: grade add-case {name} NAME --input FILE --title "..." --hint "..."
     (--sample: shown with the statement; --secret: never shipped, graded by CI)
     or a random one: grade add-case {name} NAME --random SEED --size N --secret
     then remove the scaffold's: grade rm-case {name} 01-sample (and 02-negative).
  5. Put a known-wrong solution per classic mistake in reference/{name}/wrong/,
     its docstring saying "Known wrong: <the mistake>" and "expect: <verdict>".
  6. grade verify {name}, until every row says ok."""


@cli.command("mutants")
@click.argument("exercise", shell_complete=complete_exercises)
@click.option(
    "--inputs",
    type=click.IntRange(min=0),
    default=40,
    show_default=True,
    help="Generated inputs to try on each surviving mutant.",
)
@sandbox_option
@root_option
@with_grading
def mutants_command(exercise: str, inputs: int, grading: GradingOptions, root: Path | None) -> None:
    """Mutation analysis: do EXERCISE's cases fail every small change of the reference?

    \b
    Each mutant changes one place of reference/EXERCISE/solution.py (an operator,
    a constant, a comparison, a rounding, a slice, a range, a format's precision, a
    dropped statement, a string's case). A survivor passes every case: it is run on
    inputs from generate.py, and the smallest one telling it from the reference is
    printed, ready for grade add-case; when none does, it is counted as equivalent.
    Exit 0 when every mutant some input separates is killed.
    """
    from ..commands.planning import plan_for
    from ..model.material import material
    from ..model.spec import load_exercise
    from ..teacher.mutants import analyse

    where = resolve_root(root)
    spec = load_exercise(exercise, where)
    teacher = material(spec)
    plan = plan_for(spec, grading, say=say)
    result = analyse(plan, teacher, inputs=inputs)
    original = teacher.solution.read_text(encoding="utf-8")
    for survivor in result.gaps:
        click.echo(_survivor_text(exercise, survivor, original))
    click.echo(
        f"{exercise}: {result.total} mutant{'s' * (result.total != 1)}, {result.killed} killed, "
        f"{result.equivalent} equivalent (no input among {inputs} told them apart), "
        f"{len(result.gaps)} surviving: score {result.score:.1%} of the "
        f"{result.total - result.equivalent} non-equivalent"
    )
    sys.exit(ExitCode.FAILED if result.gaps else ExitCode.OK)


def _survivor_text(exercise: str, survivor: Survivor, original: str) -> str:
    """A surviving mutant's diff and the input that tells it from the reference, in part."""
    shown = (survivor.separating or b"").decode(errors="replace")
    lines = shown.splitlines()
    preview = "\n".join(f"    {line}" for line in lines[:6])
    hidden = len(lines) - 6
    more = f"\n    … ({hidden} more line{'s' if hidden > 1 else ''})" if hidden > 0 else ""
    return (
        survivor.mutant.diff(original)
        + f"  survives every case; this input tells it from the reference:\n{preview}{more}\n"
        + f"  (add it: grade add-case {exercise} NAME --input FILE)\n"
    )


def _refresh_mistakes(exercise: str, where: Root, sandbox: Sandbox) -> list[Path]:
    from ..model.spec import load_exercise
    from ..teacher.expected import refresh_derived

    return refresh_derived(load_exercise(exercise, where), sandbox)


def _visibility(name: str) -> Visibility:
    from ..judging.records import Visibility

    return Visibility(name)
