"""Removing a run's folder, whatever the run left in it.

Where the run had no tmpfs of its own (no namespaces), its work dir is on the host's disk and
holds what the run made of it: a 3000-deep chain of folders breaks a recursive removal (path
length, recursion, descriptors). Here the tree is flattened instead: every sub-folder is moved up
to the top before its parent goes, so no path is ever longer than two names.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def remove_tree(top: Path) -> None:
    """Remove ``top`` and everything below it; never follows a symlink; iterative. Best effort:
    the run's result is known by now, and a folder the run made unremovable must not turn it
    into a grader error."""
    with contextlib.suppress(OSError):
        _empty(str(top))
        os.rmdir(top)


def _empty(top: str) -> None:
    counter = 0
    pending = [top]
    while pending:
        folder = pending.pop()
        with contextlib.suppress(OSError):  # a run may have taken its own rights away
            os.chmod(folder, 0o700)
        for entry in list(os.scandir(folder)):
            if entry.is_dir(follow_symlinks=False):
                # moving a folder rewrites its "..": it must be writable (mkdir took a mode)
                os.chmod(entry.path, 0o700)
                if folder == top:
                    pending.append(entry.path)
                    continue
                counter += 1  # lift it up beside the others: depth stays at two
                lifted = os.path.join(top, f".lifted-{counter}")
                os.rename(entry.path, lifted)
                pending.append(lifted)
            else:
                os.unlink(entry.path)
        if folder != top:  # its sub-folders were lifted: it is empty now
            os.rmdir(folder)
