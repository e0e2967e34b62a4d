"""What the grader tells the sandbox child: one typed, frozen record, serialised once.

Loaded by path in the child (``_child._sibling``), as the layers are, and imported by the
grader: the same class on both sides of the boundary. Not a dataclass: ``import dataclasses``
costs a fresh run ~19 ms (it imports inspect), more than the rest of the sandbox's start-up;
marshal, which the child has anyway, carries the fields as a tuple in ``FIELDS`` order.
"""

from __future__ import annotations

import marshal
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FIELDS = (
    "parent",  # the pid the child dies with: the grader, or the fork server it was forked from
    "workdir",  # the run's own writable folder, its cwd
    "root",  # where the run's root is built (with the mounts layer)
    "submission",  # the path the run is shown as (argv[0], tracebacks)
    "source",  # the grader's private copy of the script, which the run reads
    "args",  # the script's arguments
    "files",  # name -> bytes written into the work dir first (a checker's input, expected)
    "probe",  # only report which layers hold, run nothing
    "layers",  # the layers to apply, by name
    "uid",  # the run's own uid (root only), or None
    "gid",
    "read",  # what the run may read (absolute paths)
    "list",  # folders it may list, not read
    "devices",  # /dev nodes it may use
    "work_bytes",  # the work dir's size
    "work_inodes",
    "cpu_s",  # RLIMIT_CPU's soft limit (timing.cpu_cap_s)
    "data_bytes",  # RLIMIT_DATA: the memory limit
    "fsize_bytes",  # RLIMIT_FSIZE: one byte over the output cap
    "nofile",
    "nproc",
    "user_site",  # a user site-packages folder to add, or ""
    "compiled",  # layer name -> its code object, marshalled for this interpreter's version
    "landlock_abi_max",  # the highest Landlock ABI the grader's code knows
)

# What a fork server reads of a run's config to pick its namespace template (template.py),
# marshalled apart, ahead of the rest: the server never reads the rest (a checker's files, a
# hidden case's input and expected output), whose freed buffer would stay in the heap every
# later run is forked from, another student's run included
TEMPLATE_FIELDS = ("probe", "uid", "layers", "read", "devices")
_LENGTH = 8  # bytes: the length of those fields' part


def template_fields(fd: int) -> dict[str, Any]:
    """The ``TEMPLATE_FIELDS`` of the config open at ``fd``, read without the rest."""
    size = int.from_bytes(os.pread(fd, _LENGTH, 0), "little")
    values = marshal.loads(os.pread(fd, size, _LENGTH))
    if not isinstance(values, tuple) or len(values) != len(TEMPLATE_FIELDS):
        raise ValueError("not a ChildConfig from this grader")
    return dict(zip(TEMPLATE_FIELDS, values, strict=True))


def limit_fields(limits: Any, cpu_s: int) -> dict[str, int]:
    """The fields a run's ``Limits`` set (``cpu_s``: timing.cpu_cap_s of its time limit), as
    both runners tell their child: the same limits mean the same rlimits everywhere."""
    return {
        "work_bytes": limits.disk_mb << 20,
        "work_inodes": limits.files,
        "cpu_s": cpu_s,
        "data_bytes": limits.memory_mb << 20,
        # one byte over the cap, so that "exactly at the limit" and "over it" differ
        "fsize_bytes": limits.output_kb * 1024 + 1,
    }


class ChildConfig:
    """One run's set-up, as the child needs it; frozen once made."""

    __slots__ = FIELDS

    parent: int
    workdir: str
    root: str
    submission: str
    source: str
    args: tuple[str, ...]
    files: dict[str, bytes]
    probe: bool
    layers: tuple[str, ...]
    uid: int | None
    gid: int | None
    read: tuple[str, ...]
    list: tuple[str, ...]
    devices: tuple[str, ...]
    work_bytes: int
    work_inodes: int
    cpu_s: int
    data_bytes: int
    fsize_bytes: int
    nofile: int
    nproc: int
    user_site: str
    compiled: dict[str, Any]
    landlock_abi_max: int

    def __init__(self, **values: Any) -> None:
        missing = [name for name in FIELDS if name not in values]
        extra = sorted(values.keys() - set(FIELDS))
        if missing or extra:
            raise TypeError(f"ChildConfig: missing {missing}, unknown {extra}")
        for name in FIELDS:
            object.__setattr__(self, name, values[name])

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"ChildConfig is frozen: cannot set {name}")

    def __repr__(self) -> str:  # never the compiled code: it is large and says nothing
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in FIELDS if n != "compiled")
        return f"ChildConfig({shown})"

    def replace(self, **changes: Any) -> ChildConfig:
        return ChildConfig(**{**{n: getattr(self, n) for n in FIELDS}, **changes})

    def to_wire(self) -> bytes:
        head = marshal.dumps(tuple(getattr(self, n) for n in TEMPLATE_FIELDS))
        whole = marshal.dumps(tuple(getattr(self, n) for n in FIELDS))
        return len(head).to_bytes(_LENGTH, "little") + head + whole

    @classmethod
    def from_wire(cls, data: bytes) -> ChildConfig:
        skip = _LENGTH + int.from_bytes(data[:_LENGTH], "little")
        values = marshal.loads(memoryview(data)[skip:])
        if not isinstance(values, tuple) or len(values) != len(FIELDS):
            raise ValueError("not a ChildConfig from this grader")
        return cls(**dict(zip(FIELDS, values, strict=True)))
