"""What goes into a sandboxed run and what comes out. No grading knowledge here."""

from __future__ import annotations

from dataclasses import dataclass

from .._compat import StrEnum


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


class SandboxMode(StrEnum):
    STRICT = "strict"  # every isolation layer, or refuse to run
    AUTO = "auto"  # every layer this machine offers; say what is missing
    OFF = "off"  # limits, a fresh directory and a clean environment only


class Layer(StrEnum):
    UID = "uid"  # root only: each run under its own unused uid
    NAMESPACES = "namespaces"  # user, network, IPC, UTS and mount namespaces
    MOUNTS = "mounts"  # tmpfs over /tmp, /dev/shm and the folders holding answers
    LANDLOCK = "landlock"  # filesystem allow-list, no TCP, scoped signals and abstract sockets
    SECCOMP = "seccomp"  # no sockets, processes, exec, ptrace, mounts, bpf, io_uring, ...


# What a missing layer leaves open, for the one-line warning.
EXPOSED = {
    Layer.UID: "runs share the grader's uid",
    Layer.NAMESPACES: "network reachable",
    Layer.MOUNTS: "answer folders visible to stat()",
    Layer.LANDLOCK: "files readable and writable as the grader's user",
    Layer.SECCOMP: "processes, sockets and exec allowed",
}


@dataclass(frozen=True)
class RunResult:
    exit_code: int | None  # None when the process was killed by a signal
    signal: int | None
    wall_s: float
    stdout: bytes  # at most the output limit
    stderr: bytes  # at most the output limit
    limit_hit: LimitHit | None = None

    @property
    def crashed(self) -> bool:
        return self.exit_code != 0
