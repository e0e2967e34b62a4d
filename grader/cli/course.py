"""Commands for a course as a whole: ``grade init`` and ``grade package``."""

from __future__ import annotations

from pathlib import Path

import click

from .base import cli, resolve_root, root_option


@cli.command("init")
@click.argument("folder", type=click.Path(path_type=Path), default=".")
@click.option(
    "--ci",
    type=click.Choice(["github", "gitlab", "gradescope"]),
    multiple=True,
    help="Also write the CI file for this platform (repeatable).",
)
def init_command(folder: Path, ci: tuple[str, ...]) -> None:
    """Start a course in FOLDER (default: here): grade.toml, exercises/, cases/, reference/.

    Inside it (or any folder below), every grade command uses the course.
    """
    from ..course import init_course

    written = init_course(folder, ci=ci)
    click.echo(f"created a course in {folder.absolute()}:")
    for path in written:
        click.echo(f"  {path}")
    click.echo(
        f"\nNext: cd {folder} && grade new NAME  (a first exercise that passes grade verify)"
    )


@cli.group("package")
def package_group() -> None:
    """Build what students install, or what a platform runs."""


@package_group.command("student")
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--exercise", "exercises", multiple=True, help="Only these (default: all).")
@root_option
def package_student_command(out: Path, exercises: tuple[str, ...], root: Path | None) -> None:
    """A wheel in folder OUT: the grader, the specs, the public cases; no secret case, no
    reference. Students: pip install OUT/*.whl, then grade EXERCISE FILE."""
    from ..packaging import package_student

    built = package_student(resolve_root(root), out, exercises)
    click.echo(str(built.path))
    click.echo(
        f"{len(built.exercises)} exercise(s), {built.public} public case(s) inside; "
        "secret cases left out",
        err=True,
    )


@package_group.command("gradescope")
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--exercise", help="The exercise it grades (needed when the course has several).")
@root_option
def package_gradescope_command(out: Path, exercise: str | None, root: Path | None) -> None:
    """Gradescope's autograder zip OUT: setup.sh, run_autograder and the pinned grader with
    every case, secret ones included. Upload it as the assignment's autograder."""
    from ..packaging import package_gradescope

    built = package_gradescope(resolve_root(root), out, exercise)
    click.echo(str(built.path))
    click.echo(
        f"{built.exercises[0]}: {built.public} public and {built.secret} secret case(s) inside",
        err=True,
    )
