"""The ``grade`` command group, its shared options, and turning domain errors into exit codes.

The CLI is click commands only: parse, call the library, render, exit. Commands live in
``student.py``, ``classroom.py`` and ``teacher.py``, by who runs them.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.shell_completion import CompletionItem

from .. import ROOT_ENV, __version__
from ..judging.errors import ExitCode, GraderError

if TYPE_CHECKING:
    from ..commands.options import GradingOptions
    from ..model.resources import Root
    from ..model.spec import Exercise
    from ..sandbox import Sandbox

DEFAULT_COMMAND = "check"

# SIGTERM (a cancelled CI job) and SIGHUP (a closed terminal); Windows has no SIGHUP
_ENDING = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))
_SIGPIPE = getattr(signal, "SIGPIPE", 13)


def _streams_that_encode_anything() -> None:
    """No report may fail on the way out for a character the stream's encoding lacks (✓ on a
    Windows cp1252 pipe, a student's output under a Latin-1 locale). A file or pipe gets UTF-8,
    what CI logs read and Python's own UTF-8 mode gives; a terminal keeps its encoding and shows
    what it cannot print as ``?``. (A stream already in UTF-8 gets the same: only its handling
    of a lone surrogate changes, to ``?`` instead of a crash.)"""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None:  # none (a closed descriptor), or a caller's own stream
            continue
        try:
            if stream.isatty():
                reconfigure(errors="replace")
            else:
                reconfigure(encoding="utf-8", errors="replace")
        except (OSError, ValueError):  # closed, or a stream of the caller's own
            continue


class DefaultGroup(click.Group):
    """``grade EX FILE`` means ``grade check EX FILE``; domain errors become one line each."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args and not ctx.resilient_parsing:  # the help, as a usage mistake (click 8.2's)
            click.echo(ctx.get_help())
            ctx.exit(ExitCode.USAGE)
        if args and args[0] == "help":  # grade help [COMMAND], as git and pip take it
            topic = [word for word in args[1:2] if word != "help"]
            if topic and topic[0] not in self.commands:
                from ..judging.printed import closest

                close = closest(topic[0], self.commands)
                hint = f"; did you mean 'grade help {close}'?" if close else ""
                raise click.UsageError(f"no command {topic[0]!r}{hint}", ctx)
            args = [*topic, "--help"]
        lone = len(args) == 1 and args[0] not in self.commands and not args[0].startswith("-")
        if lone and not ctx.resilient_parsing and args[0] not in _exercises_here():
            from ..judging.printed import closest

            close = closest(args[0], self.commands)
            hint = f"did you mean 'grade {close}'? " if close else ""
            raise click.UsageError(
                f"no command {args[0]!r}; {hint}to grade a script: grade EXERCISE FILE", ctx
            )
        if args and args[0].startswith("-") and args[0] not in _GROUP_OPTIONS:
            # a command's option first (grade --root DIR show EX): the command, then its options
            named = next((i for i, word in enumerate(args) if word in self.commands), None)
            if named is not None:
                args = [args[named], *args[:named], *args[named + 1 :]]
        if args and args[0] not in self.commands and args[0] not in _GROUP_OPTIONS:
            args = [DEFAULT_COMMAND, *args]
        return super().parse_args(ctx, args)

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        """The first word is a command or, for ``grade EX FILE``, an exercise."""
        return [
            *super().shell_complete(ctx, incomplete),
            *complete_exercises(ctx, None, incomplete),
        ]

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Click's own usage errors in grade's one style: ``grade: error: …``, exit 2."""
        _streams_that_encode_anything()
        try:
            result = super().main(args, prog_name, complete_var, False, **extra)
        except click.UsageError as exc:
            where = exc.ctx.command_path if exc.ctx is not None else "grade"
            click.echo(f"grade: error: {_sentence(exc.format_message())}", err=True)
            click.echo(f"  (see: {where} --help)", err=True)
            if not standalone_mode:
                raise
            sys.exit(ExitCode.USAGE)
        except click.exceptions.Abort:
            click.echo("grade: interrupted", err=True)
            sys.exit(ExitCode.INTERRUPTED)
        except click.ClickException as exc:
            click.echo(f"grade: error: {_sentence(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        if standalone_mode:
            sys.exit(result if isinstance(result, int) else 0)
        return result

    def invoke(self, ctx: click.Context) -> Any:
        # SIGTERM (a cancelled CI job) and SIGHUP (a closed terminal) end a command the way
        # Ctrl-C does: runs stopped, what was graded written; the exit status says which.
        received = ctx.ensure_object(Interruption)
        before = (  # only the main thread may set handlers (a library may call us from others)
            {s: signal.signal(s, received.handle) for s in _ENDING}
            if threading.current_thread() is threading.main_thread()
            else {}
        )
        try:
            return super().invoke(ctx)
        except GraderError as exc:  # its message may quote a student's file name
            from ..render.escape import log_safe, safe

            click.echo(log_safe(safe(f"grade: error: {exc}")), err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("grade: interrupted", err=True)
            ctx.exit(received.exit_code)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
            raise
        except BrokenPipeError:  # the reader went away (grade ... | head): not a bug of ours
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no later flush fails
            ctx.exit(128 + _SIGPIPE)  # as a shell reports a writer the pipe's end killed
        except Exception as exc:  # a bug of ours: exit 4 and a crash file, never a traceback
            from ..crash import crash_line, write_crash
            from ..render.escape import log_safe, safe

            click.echo(log_safe(safe(crash_line(exc, write_crash(exc, sys.argv)))), err=True)
            ctx.exit(ExitCode.GRADER_ERROR)
        finally:  # in-process callers (tests) get their own handlers back
            for signum, handler in before.items():
                signal.signal(signum, handler)


_GROUP_OPTIONS = ("--help", "-h", "--version", "-V")


def _exercises_here() -> tuple[str, ...]:
    """The exercises of the course this command would use (none if it cannot tell)."""
    from ..model.spec import exercise_names

    try:
        return exercise_names(_find_root(None, environ=os.environ))
    except GraderError:
        return ()


def complete_exercises(
    ctx: click.Context, param: click.Parameter | None, incomplete: str
) -> list[CompletionItem]:
    """Exercise names for shell completion, from the course the command would use."""
    from ..model.spec import exercise_names

    try:
        where = _find_root(ctx.params.get("root"), environ=os.environ)
    except GraderError:
        return []
    return [CompletionItem(n) for n in exercise_names(where) if n.startswith(incomplete)]


def _sentence(message: str) -> str:
    """Click's messages start with a capital, grade's (like compilers') do not."""
    return message[:1].lower() + message[1:] if message[1:2].islower() else message


class Interruption:
    """The signal that interrupted the command, if one did (Ctrl-C is SIGINT)."""

    def __init__(self) -> None:
        self.signum = int(signal.SIGINT)

    def handle(self, signum: int, frame: object) -> None:
        self.signum = signum
        raise KeyboardInterrupt

    @property
    def exit_code(self) -> int:
        return 128 + self.signum  # as a shell reports a death by that signal


def interrupted_exit_code() -> int:
    """For commands that catch the interruption themselves (batch keeps what was graded)."""
    found = click.get_current_context().find_object(Interruption)
    return found.exit_code if found is not None else int(ExitCode.INTERRUPTED)


root_option = click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    envvar=ROOT_ENV,
    help=f"Folder with exercises/ and cases/ (default: this checkout, else the bundled ones). "
    f"Env: {ROOT_ENV}.",
)


def resolve_root(root: Path | None) -> Root:
    return _find_root(root, environ={})


def _find_root(root: Path | None, *, environ: Mapping[str, str]) -> Root:
    from ..model.resources import find_root  # its config parsing (tomllib) is not for --help

    return find_root(root, environ=environ)


sandbox_option = click.option(
    "--sandbox",
    "sandbox_mode",
    type=click.Choice(["strict", "auto", "off"]),
    help="strict: every isolation layer or refuse to run (for CI); auto: what this machine "
    "offers, saying what is missing; off: limits and a clean environment only.  "
    "[default: the course's grade.toml, else auto]",
)


isolation_option = click.option(
    "--isolation",
    type=click.Choice(["fork", "fresh"]),
    default="fork",
    show_default=True,
    help="fork: each run a fork of one started interpreter (same sandbox, without the start-up "
    "and the preloaded imports per case); fresh: a new interpreter per case.",
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
    help="Seconds per case, overriding the exercise's limit (and the course's grade.toml).",
)


jobs_option = click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    help="Case-runs at once  [default: the course's grade.toml, else the number of CPUs]",
)


def say(notice: str | None) -> None:
    """A command's notice, on stderr (the library's ``Say``): a CI log's encoding, as for
    errors, since a notice may quote a course's name or a file's."""
    if notice:
        from ..render.escape import log_safe, safe_lines

        click.echo(log_safe(safe_lines(f"grade: {notice}")), err=True)


def with_grading(command: Callable[..., Any]) -> Callable[..., Any]:
    """Gather the grading options a command takes (--sandbox, --cases, --timeout, --jobs,
    --isolation) into one ``GradingOptions`` passed as ``grading``."""

    @functools.wraps(command)
    def gathered(**kwargs: Any) -> Any:
        from ..commands.options import GradingOptions
        from ..sandbox import Isolation, SandboxMode

        mode = kwargs.pop("sandbox_mode", None)
        kwargs["grading"] = GradingOptions(
            sandbox_mode=SandboxMode(mode) if mode else None,
            cases_dir=kwargs.pop("cases_dir", None),
            timeout_s=kwargs.pop("timeout", None),
            jobs=kwargs.pop("jobs", None),
            isolation=Isolation(kwargs.pop("isolation", "fork")),
        )
        return command(**kwargs)

    return gathered


def load(exercise: str, root: Path | None) -> Exercise:
    from ..model.spec import load_exercise

    return load_exercise(exercise, resolve_root(root))


def loaded_early(exercise: str, root: Path | None, grading: GradingOptions) -> Exercise | None:
    """EXERCISE loaded and its fork servers started before the command's heavy imports, so that
    their start-up (numpy's import) overlaps those; None where it does not load, whose error
    the command's own ``load`` then says, after any error of its options as before."""
    from ..commands.options import start_servers

    try:
        found = load(exercise, root)
    except GraderError:
        return None
    start_servers(found, grading)
    return found


def teacher_sandbox(where: Root, sandbox_mode: str | None) -> Sandbox:
    """The sandbox for running a root's references and solutions; says what it lacks here."""
    from ..commands import planning
    from ..sandbox import SandboxMode

    return planning.teacher_sandbox(
        where, SandboxMode(sandbox_mode) if sandbox_mode else None, say=say
    )


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="grade")
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
    from ..model.resources import shared_install

    say(shared_install())
