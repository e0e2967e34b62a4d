"""``grade check --watch``: grade, then again at every save of the file, until Ctrl-C.

File watching is ``watchfiles`` (inotify and its kin, through Rust's notify): an optional
dependency, for the students who want it (``pip install 'grade-autograder[watch]'``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click

from ..judging.errors import GraderError, UsageError
from ..judging.records import Feedback
from ..render.escape import log_safe, safe

_CLEAR_SCREEN = "\x1b[2J\x1b[H"


def _marks(feedback: Feedback) -> str:
    return " ".join(f"{'✓' if c.passed else '✗'}{c.name}" for c in feedback.cases)


def watch_and_regrade(submission: Path, once: Callable[[], Feedback]) -> None:
    try:
        from watchfiles import watch
    except ModuleNotFoundError:
        raise UsageError("--watch needs watchfiles: pip install watchfiles") from None
    except ImportError as exc:  # installed, but its compiled part does not load here
        raise UsageError(f"--watch needs watchfiles, which does not load here: {exc}") from None
    target = submission.resolve()
    seen = _stamp(target)
    last = once()
    # An editor saves by writing the file, or by writing another and renaming it over: watch
    # the folder. What decides is the file's own stamp, compared at each event and at each
    # half-second timeout: a save made before the watcher was listening is not lost.
    for _changes in watch(
        target.parent, rust_timeout=500, yield_on_timeout=True, raise_interrupt=True
    ):
        stamp = _stamp(target)
        if stamp is None or stamp == seen:  # unchanged, or half-way through a rename
            continue
        seen = stamp
        if sys.stdout.isatty():
            click.echo(_CLEAR_SCREEN, nl=False)
        # the file's name is the student's, any bytes: stderr's one encoder, as in base.py
        told = f"grade: {submission} changed; last time {last.passed}/{last.total}: {_marks(last)}"
        click.echo(log_safe(safe(told)), err=True)
        try:
            last = once()
        except GraderError as exc:  # a broken save (not UTF-8, a folder now) is not the end
            click.echo(log_safe(safe(f"grade: error: {exc}")), err=True)


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino) if path.is_file() else None
