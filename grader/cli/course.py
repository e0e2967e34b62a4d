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
    from ..publish.init_course import init_course

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
    from ..publish.packaging import package_student

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
    from ..publish.packaging import package_gradescope

    built = package_gradescope(resolve_root(root), out, exercise)
    click.echo(str(built.path))
    click.echo(
        f"{built.exercises[0]}: {built.public} public and {built.secret} secret case(s) inside",
        err=True,
    )


@cli.command("site")
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.argument("exercises", nargs=-1)
@click.option(
    "--pyodide-url",
    default="https://cdn.jsdelivr.net/pyodide/v0.27.2/full/",
    show_default=True,
    help="Where the browser loads Pyodide from (a self-hosted copy: the npm package 'pyodide').",
)
@click.option("--serve", is_flag=True, help="Then preview it on http://127.0.0.1:PORT/.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="The preview's port (0: any free one).",
)
@root_option
def site_command(
    out: Path,
    exercises: tuple[str, ...],
    pyodide_url: str,
    serve: bool,
    port: int,
    root: Path | None,
) -> None:
    """A static practice site in OUT: per exercise the statement, an editor, and Run/Grade on
    the public cases, graded in the browser by this grader's own comparator."""
    from ..publish.site import build

    site = build(resolve_root(root), out, exercises, pyodide_url=pyodide_url)
    click.echo(f"{site.folder / 'index.html'} ({len(site.exercises)} exercise(s))")
    if serve:
        _preview(out, port)


def _preview(folder: Path, port: int) -> None:
    """Serve ``folder`` on 127.0.0.1 until Ctrl-C, which ends it as asked (exit 0)."""
    import functools
    import http.server

    from ..judging.errors import UsageError

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as exc:
        raise UsageError(
            f"cannot serve on 127.0.0.1:{port}: {exc.strerror} (choose another with --port)"
        ) from None
    with server:
        where = f"http://127.0.0.1:{server.server_address[1]}/"
        click.echo(f"serving on {where} (Ctrl-C to stop)", err=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            click.echo("stopped", err=True)
