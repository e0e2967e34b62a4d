"""Where a run's folder is made: the one place that decides it.

A run's folder (its stdin, stdout, stderr, config and the grader's copy of the script) lives
for milliseconds. On a disk's filesystem making and removing it costs more than the grader's
own Python per run (ext4 with ``discard``: ~2.7 ms per ``rmdir``, three per run); on a tmpfs it
costs microseconds. So runs get their folders on a tmpfs where there is one, writable and with
room to spare, but only where nothing a run writes can pile up there unbounded: a run with its
own root writes into its own size-limited tmpfs (the folder holds only its mount point), and a
``--sandbox off`` run is trusted code. A sandboxed run without its own root writes its work
dir's files into the folder itself, which on a tmpfs would be the machine's memory: that one
keeps the disk's temporary folder, as does every run where ``TMPDIR`` names a folder (the
user's choice, and how tests find a grader's run folders).

The folder is held while the run lasts (``heldfolders``): a grader killed mid-run leaves its
folder, with a case's input in it, for the next grader of that uid to remove.
"""

from __future__ import annotations

import functools
import os
import re
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import heldfolders
from .cleanup import remove_tree

# Candidates, in order: the user's own runtime folder (a tmpfs of theirs alone), then the
# machine's shared-memory tmpfs (sticky and world-writable, like /tmp)
_RUNTIME_VAR = "XDG_RUNTIME_DIR"
SHARED_MEMORY = "/dev/shm"
ROOM_BYTES = 256 << 20  # free space a tmpfs must have: the runs at once, their inputs, outputs
_MOUNTINFO = "/proc/self/mountinfo"
PREFIX = "grade-run-"


@dataclass(frozen=True)
class Mount:
    point: str
    fstype: str


def parse_mountinfo(text: str) -> tuple[Mount, ...]:
    """The mount points and their filesystem types, in the order mounted (a later mount on the
    same point hides the earlier)."""
    found = []
    for line in text.splitlines():
        fields, _, rest = line.partition(" - ")
        parts = fields.split()
        if len(parts) >= 5 and rest:
            # octal escapes (\040 for a space) in the mount point, as the kernel writes them
            point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), parts[4])
            found.append(Mount(point, rest.split()[0]))
    return tuple(found)


def filesystem_of(path: str, mounts: Sequence[Mount]) -> str | None:
    """The type of the filesystem ``path`` (a real path) is on: its longest mount point's, the
    latest of equal ones."""
    best: Mount | None = None
    for mount in mounts:
        inside = path == mount.point or path.startswith(mount.point.rstrip("/") + "/")
        if inside and (best is None or len(mount.point) >= len(best.point)):
            best = mount
    return best.fstype if best is not None else None


@dataclass(frozen=True)
class Machine:
    """What the choice looks at, as functions so that tests can stand in for a machine."""

    environ: Mapping[str, str]
    mounts: Callable[[], Sequence[Mount]]
    free_bytes: Callable[[str], int]  # raises OSError where the folder cannot be asked
    writable: Callable[[str], bool]
    fallback: Callable[[], str]


def _free_bytes(path: str) -> int:
    found = os.statvfs(path)
    return found.f_bavail * found.f_frsize


def _writable(path: str) -> bool:
    return os.path.isdir(path) and os.access(path, os.W_OK | os.X_OK)


@functools.cache
def _mounts() -> tuple[Mount, ...]:
    """Read once per grader: mounts do not come and go under a grading."""
    try:
        with open(_MOUNTINFO, encoding="utf-8", errors="replace") as f:
            return parse_mountinfo(f.read())
    except OSError:  # not Linux, or no /proc: no tmpfs is known
        return ()


def this_machine() -> Machine:
    return Machine(os.environ, _mounts, _free_bytes, _writable, tempfile.gettempdir)


def run_parent(*, writes_bounded: bool, machine: Machine | None = None) -> str:
    """The folder to make a run's folder in. ``writes_bounded``: nothing the run writes lands
    in its folder beyond its capped outputs (its own root's tmpfs takes its files), or the run
    is trusted (``--sandbox off``)."""
    found = machine or this_machine()
    if found.environ.get("TMPDIR") or not writes_bounded:
        return found.fallback()
    candidates = [found.environ.get(_RUNTIME_VAR, ""), SHARED_MEMORY]
    for candidate in (c for c in candidates if c):
        real = os.path.realpath(candidate)
        if filesystem_of(real, found.mounts()) != "tmpfs" or not found.writable(real):
            continue
        try:
            if found.free_bytes(real) >= ROOM_BYTES:
                return real
        except OSError:
            continue
    return found.fallback()


@dataclass(frozen=True)
class RunFolder:
    path: Path
    held: int | None  # the descriptor holding its lock (none on Windows)

    def remove(self, remover: Callable[[Path], None] = remove_tree) -> None:
        """Remove it, then let go of it: an unheld folder is any grader's to remove."""
        try:
            remover(self.path)
        finally:
            heldfolders.release(self.held)


def new_run_folder(parent: str) -> RunFolder:
    """A run's folder in ``parent``, held until ``RunFolder.remove``; first, once per grader and
    place, the folders of this uid's graders that were killed mid-run are removed."""
    _swept(parent)
    path, held = heldfolders.make(parent, PREFIX)
    return RunFolder(Path(path), held)


@functools.cache
def _swept(parent: str) -> None:
    heldfolders.remove_stale(parent, PREFIX, lambda path: remove_tree(Path(path)))
