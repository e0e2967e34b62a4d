"""Where run folders are made (runfolders.run_parent): a tmpfs where there is one with room and a
run cannot fill it, else the temporary folder as before; real runs land where the rule says."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

import pytest

from grader.sandbox import Limits, Sandbox, SandboxMode
from grader.sandbox.runfolders import (
    ROOM_BYTES,
    SHARED_MEMORY,
    Machine,
    Mount,
    filesystem_of,
    parse_mountinfo,
    run_parent,
)

DISK = "/var/tmp-fallback"
RUNTIME = "/run/user/1000"
PLENTY = ROOM_BYTES
MOUNTS = (Mount("/", "ext4"), Mount("/dev/shm", "tmpfs"), Mount("/run/user/1000", "tmpfs"))


def _machine(
    environ: Mapping[str, str],
    mounts: tuple[Mount, ...] = MOUNTS,
    free: Mapping[str, int] | None = None,
    writable: tuple[str, ...] = (SHARED_MEMORY, RUNTIME),
) -> Machine:
    room = free if free is not None else {SHARED_MEMORY: PLENTY, RUNTIME: PLENTY}

    def free_bytes(path: str) -> int:
        if path not in room:
            raise OSError("no such folder")
        return room[path]

    return Machine(environ, lambda: mounts, free_bytes, lambda p: p in writable, lambda: DISK)


RUNTIME_ENV = {"XDG_RUNTIME_DIR": RUNTIME}
# (why, machine, writes bounded, where run folders go)
TABLE = [
    ("the user's runtime tmpfs first", _machine(RUNTIME_ENV), True, RUNTIME),
    ("else the shared-memory tmpfs", _machine({}), True, SHARED_MEMORY),
    ("a TMPDIR the user set wins", _machine({**RUNTIME_ENV, "TMPDIR": "/x"}), True, DISK),
    ("a run that writes into its folder: disk", _machine(RUNTIME_ENV), False, DISK),
    (
        "a runtime folder too small: shared memory",
        _machine(RUNTIME_ENV, free={RUNTIME: PLENTY - 1, SHARED_MEMORY: PLENTY}),
        True,
        SHARED_MEMORY,
    ),
    (
        "no tmpfs with room: disk",
        _machine(RUNTIME_ENV, free={RUNTIME: 1, SHARED_MEMORY: PLENTY - 1}),
        True,
        DISK,
    ),
    (
        "not writable: skipped",
        _machine(RUNTIME_ENV, writable=(RUNTIME,)),
        True,
        RUNTIME,
    ),
    ("nothing writable: disk", _machine(RUNTIME_ENV, writable=()), True, DISK),
    (
        "/dev/shm on a disk (no tmpfs there): disk",
        _machine({}, mounts=(Mount("/", "ext4"),)),
        True,
        DISK,
    ),
    (
        "a later ext4 mount over the tmpfs hides it",
        _machine({}, mounts=(*MOUNTS, Mount("/dev/shm", "ext4"))),
        True,
        DISK,
    ),
    ("no /proc: nothing is known to be a tmpfs", _machine({}, mounts=()), True, DISK),
    ("statvfs fails: skipped", _machine({}, free={}), True, DISK),
]


@pytest.mark.parametrize(
    ("machine", "bounded", "expected"),
    [row[1:] for row in TABLE],
    ids=[row[0] for row in TABLE],
)
def test_run_parent(machine: Machine, bounded: bool, expected: str) -> None:
    assert run_parent(writes_bounded=bounded, machine=machine) == expected


def test_mountinfo_is_read_with_its_escapes() -> None:
    text = (
        "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
        "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
        "30 25 0:27 / /mnt/my\\040runs rw,relatime shared:5 - tmpfs tmpfs rw,size=4k\n"
    )
    mounts = parse_mountinfo(text)
    assert mounts[-1] == Mount("/mnt/my runs", "tmpfs")
    assert filesystem_of("/mnt/my runs/x", mounts) == "tmpfs"
    assert filesystem_of("/mnt/my runsx", mounts) == "ext4"  # a prefix of a name is no folder


def _cwd_of_a_run(sandbox: Sandbox) -> Path:
    code = "import os; print(os.getcwd())"
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch, "where.py")
        script.write_text(code)
        done = sandbox.run([sys.executable, str(script)], stdin=b"", limits=Limits())
    assert done.exit_code == 0, done.stderr
    return Path(done.stdout.decode().strip())


def test_real_runs_are_made_where_the_rule_says_and_removed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("TMPDIR", raising=False)
    off = Sandbox.create(SandboxMode.OFF)
    expected = Path(run_parent(writes_bounded=True))
    work = _cwd_of_a_run(off)  # --sandbox off: the run's cwd is its folder's work dir, for real
    assert work.parent.parent == expected
    assert work.parent.name.startswith("grade-run-")
    assert not work.parent.exists()

    # and the other way: a TMPDIR the user set is where they go, as before
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)  # gettempdir() reads TMPDIR again
    work = _cwd_of_a_run(off)
    assert work.parent.parent == tmp_path
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(
    not (os.path.isdir(SHARED_MEMORY) and sys.platform == "linux"), reason="no /dev/shm here"
)
def test_this_linux_machine_has_its_tmpfs_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where /dev/shm is a tmpfs with room (every Linux CI runner), it is found: the rule is
    not a table that real machines never reach."""
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    stat = os.statvfs(SHARED_MEMORY)
    mounts = Path("/proc/self/mountinfo").read_text()
    tmpfs = filesystem_of(os.path.realpath(SHARED_MEMORY), parse_mountinfo(mounts)) == "tmpfs"
    roomy = stat.f_bavail * stat.f_frsize >= ROOM_BYTES
    if not (tmpfs and roomy and os.access(SHARED_MEMORY, os.W_OK)):
        pytest.skip("/dev/shm here is not a writable tmpfs with room")
    assert run_parent(writes_bounded=True) == os.path.realpath(SHARED_MEMORY)
