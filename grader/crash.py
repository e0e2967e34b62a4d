"""A bug in the grader, reported as one: a crash file holding the traceback, and one line.

An unexpected exception at the command line is never exit 1 ("the student failed") and never
a traceback on the student's screen or in a CI log: it is exit 4, a line naming the file, and
the file, written where the one who runs grade can read it and send it.
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from pathlib import Path

from . import __version__

CRASH_DIR_ENV = "GRADE_CRASH_DIR"  # where crash files go; else the system's temporary folder


def crash_folder() -> Path:
    return Path(os.environ.get(CRASH_DIR_ENV) or tempfile.gettempdir())


def write_crash(exc: BaseException, argv: Sequence[str]) -> Path | None:
    """The crash file for ``exc`` (None if even that cannot be written: the line still says
    what happened)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    text = (
        f"grade {__version__} crashed (a bug in grade, not in the graded script)\n"
        f"python {sys.version.split()[0]} on {platform.platform()}\n"
        f"command: {' '.join(map(repr, argv))}\n\n"
        + "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    )
    try:  # a fresh file of a name no one can guess: never through a link another user left
        fd, name = tempfile.mkstemp(
            prefix=f"grade-crash-{stamp}-", suffix=".txt", dir=crash_folder()
        )
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8", errors="backslashreplace"))
    except OSError:
        return None
    return Path(name)


def crash_line(exc: BaseException, path: Path | None) -> str:
    """The one line on stderr: what broke, and where the traceback is."""
    what = f"{type(exc).__name__}: {exc}"
    if len(what) > 200:
        what = what[:199] + "…"
    where = f"the traceback is in {path}" if path is not None else "no crash file could be written"
    return f"grade: internal error (a bug in grade, not your script): {what}; {where}; report it"
