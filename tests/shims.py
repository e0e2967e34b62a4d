"""Platform shims: this Linux Python made to lack what macOS or Windows CPython lacks, so that
the portable code paths run (and fail, where they reach for a Linux-only API) in every suite.

``apply("macos")`` removes what macOS CPython does not have (``os.waitid`` before 3.13,
``pidfd_*``, ``unshare``, ``/proc``; ``prctl`` is never called outside the Linux sandbox) and
says ``sys.platform == "darwin"``. ``apply("windows")`` removes the POSIX-only modules and calls
that Windows CPython lacks; only what runs no submission works under it (a run needs the Job
Object, tested under Wine). As a script: ``python tests/shims.py KIND ARGS...`` runs
``grade ARGS...`` under the shim.
"""

from __future__ import annotations

import importlib.abc
import os
import signal
import sys
from collections.abc import Sequence

POSIX_ONLY_MODULES = ("fcntl", "resource", "termios", "pwd", "grp", "tty", "pty")
_LINUX_ONLY_OS = ("waitid", "pidfd_open", "unshare", "setns", "sched_getaffinity", "memfd_create")
_POSIX_ONLY_OS = (
    "fork",
    "killpg",
    "setsid",
    "getuid",
    "geteuid",
    "getpgid",
    "posix_spawn",
    "wait4",
    "fchmod",
    "O_NOFOLLOW",
    "O_DIRECTORY",
    "O_NONBLOCK",
    *_LINUX_ONLY_OS,
)
# What Windows' signal module has: everything else goes
_WINDOWS_SIGNALS = {"SIGINT", "SIGTERM", "SIGABRT", "SIGFPE", "SIGILL", "SIGSEGV", "SIGBREAK"}


class _Refuse(importlib.abc.MetaPathFinder):
    def __init__(self, names: Sequence[str]) -> None:
        self.names = set(names)

    def find_spec(self, name: str, path: object, target: object = None) -> None:
        if name in self.names:
            raise ModuleNotFoundError(f"No module named {name!r} (shim)", name=name)
        return None


def apply(kind: str) -> None:
    if kind == "macos":
        for name in _LINUX_ONLY_OS:
            if hasattr(os, name):
                delattr(os, name)
        if hasattr(signal, "pidfd_send_signal"):
            del signal.pidfd_send_signal
        from grader.sandbox import procfs

        procfs.PROC = "/nonexistent-proc"
        sys.platform = "darwin"
    elif kind == "windows":
        for name in POSIX_ONLY_MODULES:
            sys.modules.pop(name, None)
        sys.meta_path.insert(0, _Refuse(POSIX_ONLY_MODULES))
        for name in _POSIX_ONLY_OS:
            if hasattr(os, name):
                delattr(os, name)
        for name in [n for n in dir(signal) if n.startswith("SIG") and "_" not in n]:
            if name not in _WINDOWS_SIGNALS:
                delattr(signal, name)
        for name in ("pthread_sigmask", "pthread_kill", "setitimer", "alarm", "pause"):
            if hasattr(signal, name):
                delattr(signal, name)
    else:
        raise ValueError(f"no shim {kind!r}")


if __name__ == "__main__":
    apply(sys.argv[1])
    from grader.cli import main

    sys.argv = ["grade", *sys.argv[2:]]
    main()
