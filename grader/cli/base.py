"""The ``grade`` command group, its shared options, and turning domain errors into exit codes.

The CLI is click commands only: parse, call the library, render, exit. Commands live in
``student.py``, ``classroom.py`` and ``teacher.py``, by who runs them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from .. import __version__
from ..errors import GraderError
from ..resources import ROOT_ENV, Root, find_root

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


def resolve_root(root: Path | None) -> Root:
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


def open_sandbox(mode: str, hide: list[Path]) -> Any:
    from ..sandbox import Sandbox, SandboxMode

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
