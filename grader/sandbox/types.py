"""What goes into a sandboxed run and what comes out. No grading knowledge here."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


@dataclass(frozen=True)
class Limits:
    time_s: float = 5.0  # wall clock; CPU time is capped a little above it
    memory_mb: int = 512  # RLIMIT_DATA: heap and private mappings, not address space
    output_kb: int = 1024  # per stream, stdout and stderr each


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
    cpu_s: float
    max_rss_kb: int
    stdout: bytes  # at most the output limit
    stderr: bytes  # at most the output limit
    limit_hit: LimitHit | None = None

    @property
    def crashed(self) -> bool:
        return self.exit_code != 0
