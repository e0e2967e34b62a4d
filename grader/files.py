"""Writing the grader's own output files so that a failure never leaves half a file behind."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from .errors import InternalError, UsageError


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename: a full
    disk or a kill leaves the old file (or none), never a truncated one."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from exc
    try:
        # mkstemp's 0600 would make a report unreadable to the CI step that uploads it
        os.fchmod(fd, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise InternalError(f"cannot write {path}: {exc.strerror}") from exc
