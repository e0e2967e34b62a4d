"""What goes into a sandboxed run and what comes out. No grading knowledge here."""

from __future__ import annotations

from ..judging._compat import StrEnum


class SandboxMode(StrEnum):
    STRICT = "strict"  # every isolation layer, or refuse to run
    AUTO = "auto"  # every layer this machine offers; say what is missing
    OFF = "off"  # limits, a fresh directory and a clean environment only


class Isolation(StrEnum):
    FORK = "fork"  # each run a fork of a started interpreter (a fork server): the same layers
    FRESH = "fresh"  # each run a new interpreter


class Layer(StrEnum):
    UID = "uid"  # root only: each run under its own unused uid, held by a lock file
    NAMESPACES = "namespaces"  # user (uid 1000 inside), PID, mount, network, IPC, UTS
    MOUNTS = "mounts"  # its own root: read-only binds of what it may read, a limited tmpfs work dir
    LANDLOCK = "landlock"  # filesystem allow-list, no TCP, scoped signals and abstract sockets
    SECCOMP = "seccomp"  # a syscall allow-list (syscalls.py)


# What a missing layer leaves open, for the one-line notice.
EXPOSED = {
    Layer.UID: "runs share the grader's uid",
    Layer.NAMESPACES: "runs can stat() the machine's files and list other processes' ids "
    "(Landlock and seccomp still stop reading, writing and signalling outside the run)",
    Layer.MOUNTS: "runs can stat() the machine's files (Landlock still stops reading and "
    "writing outside the allow-list)",
    Layer.LANDLOCK: "runs may read and write what the grader's user may",
    Layer.SECCOMP: "runs may use any syscall",
}
# What no namespaces means where Landlock is missing too: nothing stops a run of the grader's
# user from reading, writing or signalling what that user may, processes included
EXPOSED_NAMESPACES_WITHOUT_LANDLOCK = (
    "runs can see the machine's files and processes, and signal or read the memory of "
    "processes of the grader's user"
)
# How to get a missing layer back.
FIXES = {
    Layer.UID: "a Python installation other users can read (not under /root)",
    Layer.NAMESPACES: "allow unprivileged user namespaces (Ubuntu 24.04: sysctl "
    "kernel.apparmor_restrict_unprivileged_userns=0; Docker: --security-opt seccomp=unconfined)",
    Layer.MOUNTS: "allow unprivileged user namespaces",
    Layer.LANDLOCK: "a Linux kernel of 5.13 or later with Landlock enabled (lsm=...,landlock)",
    Layer.SECCOMP: "Linux on x86_64 or aarch64",
}
