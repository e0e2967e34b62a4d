"""Writing the grader's own output files so that a failure never leaves half a file behind."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from .judging.errors import InternalError, UsageError


def refuse_overwriting(outputs: Iterable[Path | None], inputs: Iterable[Path], what: str) -> None:
    """``UsageError`` before any work if an output file would replace one of the ``inputs``."""
    taken = {p.resolve() for p in inputs}
    for out in outputs:
        if out is not None and out.resolve() in taken:
            raise UsageError(f"{out} is {what}; write the results to another file")


def _umask() -> int:
    mask = os.umask(0o022)  # reading the umask means setting it: put it straight back
    os.umask(mask)
    return mask


def write_atomically(path: Path, text: str | bytes, *, durable: bool = True) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename: a full
    disk, Ctrl-C or a kill leaves the old file (or none), never a truncated one.

    A folder that cannot take the file is the caller's mistake (``UsageError``); a write that
    fails half-way (a full disk) is the machine's (``InternalError``).
    """
    target = path.resolve()  # through a symlink to its file, as a shell's > would
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from exc
    try:
        binary = isinstance(text, bytes)
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8") as f:
            # mkstemp's 0600 would hide a report from the CI step that uploads it
            if hasattr(os, "fchmod"):  # Windows before 3.13 has none, nor any such bits
                mode = target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~_umask()
                os.fchmod(f.fileno(), mode)
            f.write(text)
            f.flush()
            if durable:  # a cache need not survive a power cut, a gradebook must
                os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise InternalError(f"cannot write {path}: {exc.strerror}") from exc
        raise
    if not durable or not hasattr(os, "O_DIRECTORY"):  # Windows cannot open a folder so
        return
    with contextlib.suppress(OSError):  # the rename itself survives a power cut once this is done
        folder = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
