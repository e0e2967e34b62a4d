"""``grade check --watch``: grade, then again at every save of the file, until Ctrl-C.

File watching is ``watchfiles`` (inotify and its kin, through Rust's notify): an optional
dependency, for the students who want it (``pip install 'grade-autograder[watch]'``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click

from ..errors import GraderError, UsageError
from ..records import Feedback

_CLEAR_SCREEN = "\x1b[2J\x1b[H"


def _marks(feedback: Feedback) -> str:
    return " ".join(f"{'✓' if c.passed else '✗'}{c.name}" for c in feedback.cases)


def watch_and_regrade(submission: Path, once: Callable[[], Feedback]) -> None:
    try:
        from watchfiles import watch
    except ImportError:
        raise UsageError(
            "--watch needs watchfiles: pip install watchfiles "
            "(or: pip install 'grade-autograder[watch]')"
        ) from None
    target = submission.resolve()
    last = once()
    # An editor saves by writing the file, or by writing another and renaming it over: watch
    # the folder and keep the events that name the file.
    for _changes in watch(
        target.parent,
        watch_filter=lambda _change, path: Path(path).resolve() == target,
        raise_interrupt=True,
    ):
        if not target.is_file():  # removed, or half-way through a rename: wait for the next
            continue
        if sys.stdout.isatty():
            click.echo(_CLEAR_SCREEN, nl=False)
        click.echo(
            f"grade: {submission} changed; last time {last.passed}/{last.total}: {_marks(last)}",
            err=True,
        )
        try:
            last = once()
        except GraderError as exc:  # a broken save (not UTF-8, a folder now) is not the end
            click.echo(f"grade: error: {exc}", err=True)
