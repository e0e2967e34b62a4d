"""What a run is given (its limits) and what comes back of it: the records the sandbox
fills and the judge reads, on the command line and in the browser alike."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ._compat import StrEnum


@dataclass(frozen=True)
class Limits:
    time_s: float = 5.0  # wall clock; CPU time is capped a little above it
    memory_mb: int = 512  # RLIMIT_DATA: heap and private mappings, not address space
    output_kb: int = 1024  # per stream, stdout and stderr each
    disk_mb: int = 64  # the work dir's tmpfs (with namespaces; else RLIMIT_FSIZE per file only)
    files: int = 4096  # inodes of that tmpfs


class LimitHit(StrEnum):
    """Which limit ended (or spoiled) the run, as far as the sandbox can tell."""

    WALL_TIME = "wall_time"
    CPU_TIME = "cpu_time"
    MEMORY = "memory"
    OUTPUT = "output"


@dataclass(frozen=True)
class RunResult:
    exit_code: int | None  # None when the process was killed by a signal
    signal: int | None
    wall_s: float
    stdout: bytes  # at most the output limit
    stderr: bytes  # at most the output limit
    limit_hit: LimitHit | None = None
    # beside wall_s: tells a stuck run (waiting) from a slow one (computing); None where it
    # cannot be known (a run killed at its time limit, and no cgroup to count it)
    cpu_s: float | None = 0.0
    over: str | None = None  # "stdout" or "stderr": the stream over the output limit
    queued_s: float = 0.0  # of wall_s, the time others' load kept it from a CPU (timing.py)

    @property
    def crashed(self) -> bool:
        return self.exit_code != 0


# What runs a script: Sandbox.run's signature (argv, *, stdin, limits, files=None, source=None),
# or a test's stand-in; the one name every caller of a run uses.
Runner = Callable[..., RunResult]
