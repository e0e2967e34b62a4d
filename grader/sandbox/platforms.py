"""Which runner a platform gets, what the portable runner holds a run to there, and the one line
that says so: the notice a command prints, and ``--sandbox strict``'s refusal."""

from __future__ import annotations

import os
import sys

from . import procfs, treewatch

PORTABLE_ENV = "GRADE_PORTABLE"  # "1": the portable runner on Linux too (tests, comparisons)
PROCESSES = 64  # a portable run's processes at once (the Job Object's, or the tree watch's)
_NAMES = {"win32": "Windows", "darwin": "macOS"}


def forced() -> bool:
    return os.environ.get(PORTABLE_ENV) == "1"


def wanted() -> bool:
    """Whether runs here go through the portable runner rather than the Linux sandbox."""
    return sys.platform != "linux" or forced()


def platform_name() -> str:
    return _NAMES.get(sys.platform, "Linux" if sys.platform == "linux" else sys.platform)


def enforced() -> tuple[str, ...]:
    """What this platform's runner holds a run to, in the notice's words."""
    if sys.platform == "win32" or treewatch.default_look() is not None:
        # the Job Object; elsewhere the tree watch (macOS: psutil, as RLIMIT_DATA and RLIMIT_AS
        # do not bind malloc there; Linux: /proc, across the tree RLIMIT_DATA holds one of)
        return ("time", "memory", "processes", "output")
    if sys.platform == "darwin":  # RLIMIT_DATA and RLIMIT_AS do not bind malloc there
        return ("time", "output")
    return ("time", "memory", "output")  # RLIMIT_DATA, of each process on its own


def _where() -> str:
    return f"with {PORTABLE_ENV}=1" if sys.platform == "linux" else f"on {platform_name()}"


def notice() -> str:
    """The one line a command says of this runner (the CLI prefixes ``grade: ``)."""
    held = enforced()
    listed = ", ".join(held[:-1]) + f" and {held[-1]}"  # time and output, at least
    # where a run's CPU time cannot be read while it runs, a busy machine's wait is not known
    busy = "" if live_cpu_known() else "; a busy machine may time out a slow run"
    # a Job Object holds every process of the tree; Linux's subreaper, what a double fork
    # leaves; elsewhere the process a double fork leaves is the tree watch's only if it saw it
    held_all = sys.platform in ("win32", "linux")
    escapes = "" if held_all else " (a double fork may outlive them)"
    return (
        f"{_where()}, runs are limited in {listed} but not isolated from your files{escapes}; "
        f"fine for practice, CI grades on Linux{busy}"
    )


def strict_refusal() -> str:
    return (
        f"--sandbox strict: {_where()} runs cannot be isolated (no namespaces, Landlock "
        "or seccomp); grade with --sandbox auto for practice, and on Linux for grading"
    )


def live_cpu_known() -> bool:
    """Whether this platform's runs can be read for CPU time while they run (what lets a busy
    machine stretch their clock)."""
    if sys.platform == "win32" or os.path.isdir(procfs.PROC):
        return True
    try:
        import psutil  # noqa: F401
    except ImportError:
        return False
    return True
