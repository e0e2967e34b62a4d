"""prctl(2), every call checked: a process setting the sandbox counts on (not dumpable, dying
with its parent, no new privileges) that the kernel refused is an ``OSError`` naming it, never
a silent no-op.

Dependency-free (ctypes only): the sandbox child and the fork server load it by path, where
the grader package is not imported.
"""

from __future__ import annotations

import ctypes
import os

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_SECCOMP = 22
PR_CAPBSET_DROP = 24
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4

NAMES = {
    PR_SET_PDEATHSIG: "PR_SET_PDEATHSIG",
    PR_SET_DUMPABLE: "PR_SET_DUMPABLE",
    PR_SET_SECCOMP: "PR_SET_SECCOMP",
    PR_CAPBSET_DROP: "PR_CAPBSET_DROP",
    PR_SET_CHILD_SUBREAPER: "PR_SET_CHILD_SUBREAPER",
    PR_SET_NO_NEW_PRIVS: "PR_SET_NO_NEW_PRIVS",
    PR_CAP_AMBIENT: "PR_CAP_AMBIENT",
}

_libc: list[ctypes.CDLL] = []  # opened once per process, on first use


def prctl(
    option: int, arg2: object = 0, arg3: object = 0, *, tolerate: tuple[int, ...] = ()
) -> bool:
    """``prctl(option, arg2, arg3, 0, 0)``; False where the kernel refused it with an errno in
    ``tolerate`` (a refusal that means there was nothing to do), else an ``OSError``."""
    if not _libc:
        _libc.append(ctypes.CDLL(None, use_errno=True))
    if _libc[0].prctl(option, arg2, arg3, 0, 0) == 0:
        return True
    err = ctypes.get_errno()
    if err in tolerate:
        return False
    name = NAMES.get(option, str(option))
    raise OSError(err, f"prctl({name}): {os.strerror(err)}")
