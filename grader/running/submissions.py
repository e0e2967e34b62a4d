"""A submission as the grader takes it: read once, checked once, and that text graded.

The one rule for what can be graded (a regular .py file of UTF-8 text, or a notebook whose code
cells make one, not too large, not a link nor reached through one) and the one reader: every
command reads a submission here, once, and every run grades the text read then (the file read
again later could have been swapped).
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ..judging._compat import READ_UNLINKED
from ..judging.errors import SubmissionError
from .notebooks import CellMap, NotANotebook, notebook_script

MAX_SUBMISSION_BYTES = 1 << 20  # a script larger than 1 MiB is not a student's exercise


def read_submission(path: Path, limit: int = MAX_SUBMISSION_BYTES) -> tuple[bytes, str | None]:
    """The submission's text, read once, and why it cannot be graded (None if it can). What is
    graded is this text: the file read again later could have been swapped meanwhile (its
    folder for a link to one the grader can read and the student cannot)."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return b"", "does not exist"
    except OSError as exc:
        return b"", f"cannot be read: {exc.strerror}"
    if stat.S_ISLNK(info.st_mode):
        # followed, it could name any file the grader can read (a hidden .out, /etc/shadow) and
        # show its first line in a SyntaxError
        return b"", "is a symbolic link; grade the file itself"
    if stat.S_ISDIR(info.st_mode):
        return b"", "is a folder; give the .py file to grade"
    linked = linked_folder(path)
    if linked is not None:  # a link committed to a student's repository, where CI grades
        return b"", f"is reached through {linked}, a symbolic link; give its real path"
    if not stat.S_ISREG(info.st_mode):
        return b"", "is not a regular file"  # a FIFO or a device would hang or flood the grader
    notebook = path.suffix == ".ipynb"
    if path.suffix != ".py" and not notebook:
        return b"", "is not a Python script (.py) nor a notebook (.ipynb)"
    too_large = f"is larger than {limit >> 10} KiB" + (_OUTPUTS_COUNT if notebook else "")
    if info.st_size > limit:  # a notebook's 50 MB of stored outputs are never read
        return b"", too_large
    try:  # never through a link swapped in since the lstat
        fd = os.open(path, READ_UNLINKED | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return b"", "is not a regular file"
            data = f.read(limit + 1)
    except OSError as exc:
        return b"", f"cannot be read: {exc.strerror}"
    if len(data) > limit:
        return b"", too_large
    if b"\0" in data:
        return b"", "is a binary file, not " + ("a notebook" if notebook else "a Python script")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return b"", "is not UTF-8 text"
    return data, None


# The limit is the file's, outputs and all (the whole file is read): a student can clear them
_OUTPUTS_COUNT = (
    " (its stored outputs count: clear them, Edit > Clear Outputs of All Cells in Jupyter, "
    "and save)"
)


def linked_folder(path: Path, top: Path | None = None) -> str | None:
    """The first folder on ``path`` below ``top`` (the working directory) that is a symbolic
    link, named from ``top``; None if there is none, or if ``path`` is not below ``top``. What
    lies above ``top`` is the caller's own set-up, followed as it is. ``top`` is found on the
    path by what it is, not by its name: a link to it ("$PWD" of a linked folder) is it too."""
    here = Path.cwd()
    full = path if path.is_absolute() else here / path
    folders = [*reversed(full.parents)]
    start = next((i for i, folder in enumerate(folders) if _same(folder, top or here)), None)
    if start is None:
        return None
    for below in folders[start + 1 :]:
        if below.is_symlink():
            return str(below.relative_to(folders[start]))
    return None


def _same(one: Path, other: Path) -> bool:
    try:
        return one.samefile(other)
    except OSError:
        return False


@dataclass(frozen=True)
class Submission:
    """One script to grade: its name in reports (a student's, in a class), the path as given,
    why it cannot be graded if it cannot, and the text that is graded, read once."""

    name: str
    path: Path
    problem: str | None = None
    text: bytes | None = field(default=None, repr=False, compare=False)
    cells: CellMap | None = field(default=None, repr=False, compare=False)  # a notebook's


def identity(sub: Submission) -> str:
    """A digest of what a submission is: its path and the text read (or why it has none), so
    that a journal resumed later grades again what was replaced or edited meanwhile."""
    digest = hashlib.sha256(os.fsencode(sub.path))
    digest.update(b"\0" + (sub.text if sub.text is not None else (sub.problem or "").encode()))
    return digest.hexdigest()


def read(path: Path, name: str | None = None, limit: int = MAX_SUBMISSION_BYTES) -> Submission:
    """``path`` read and checked once; ``problem`` says why it cannot be graded, if so. A
    notebook's text is the script its code cells make, ``cells`` where each line came from."""
    text, problem = read_submission(path, limit)
    cells = None
    if problem is None and path.suffix == ".ipynb":
        try:
            text, cells = notebook_script(text)
        except NotANotebook as exc:
            problem = str(exc)
    return Submission(name or str(path), path, problem, text if problem is None else None, cells)


def check_submission(path: Path, limit: int = MAX_SUBMISSION_BYTES) -> Submission:
    """``path`` read and checked, or a ``SubmissionError`` a student can act on."""
    found = read(path, limit=limit)
    if found.problem is not None:
        raise SubmissionError(f"submission {path} {found.problem}")
    return found
