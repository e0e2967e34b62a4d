"""What a run is given (its limits) and what comes back of it: the records the sandbox
fills and the judge reads, on the command line and in the browser alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from ._compat import StrEnum


@dataclass(frozen=True)
class Limits:
    time_s: float = 5.0  # wall clock; CPU time is capped a little above it
    memory_mb: int = 512  # RLIMIT_DATA: heap and private mappings, not address space
    output_kb: int = 1024  # per stream, stdout and stderr each
    disk_mb: int = 64  # the work dir's tmpfs (with namespaces; else RLIMIT_FSIZE per file only)
    files: int = 4096  # inodes of that tmpfs


@dataclass(frozen=True)
class Clock:
    """What the sandbox measured of one run."""

    wall_s: float
    queued_s: float = 0.0  # of wall_s, the time others' load kept it from a CPU
    cpu_s: float | None = None  # None where it cannot be known
    stopped: bool = False  # killed at its deadline
    cpu_signal: bool = False  # SIGXCPU: the soft CPU limit
    killed: bool = False  # SIGKILL (the hard CPU limit is one source)


class LimitHit(StrEnum):
    """Which limit ended (or spoiled) the run, as far as the sandbox can tell: the one type
    from the sandbox's classification (``timing.time_verdict``) to the judge's message."""

    WALL_TIME = "wall_time"  # stopped at its (stretched) deadline: the student's time-out
    CPU_TIME = "cpu_time"  # the kernel's CPU limit ended it: the student's time-out
    MEMORY = "memory"
    OUTPUT = "output"
    # stopped at the stretch's end short of its own limit: the machine's fault, never the
    # student's; no RunResult carries it (the sandbox raises MachineBusy instead)
    BUSY = "busy"


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
    # the most memory it held at once, in bytes, as its runner measured it (docs/sandbox.md,
    # "Peak memory"); None where nothing said
    peak_bytes: int | None = None

    @property
    def crashed(self) -> bool:
        return self.exit_code != 0

    @property
    def clock(self) -> Clock:
        """What the judge's message reads of the run's times."""
        return Clock(wall_s=self.wall_s, queued_s=self.queued_s, cpu_s=self.cpu_s)


class Runner(Protocol):
    """What runs a script: ``Sandbox.run``, or a test's stand-in; the one type every caller
    of a run uses. ``files``: name to content, beside the script (a checker's input and
    expected output); ``source``: the script's text as the caller read it once."""

    def __call__(
        self,
        argv: Sequence[str],
        *,
        stdin: bytes,
        limits: Limits,
        files: Mapping[str, bytes] | None = None,
        source: bytes | None = None,
    ) -> RunResult: ...
