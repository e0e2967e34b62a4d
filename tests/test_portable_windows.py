"""A portable run on Windows as far as Linux can follow it: ``sys.platform`` says win32 and a
Job Object of the test's making (``winjob.Job``'s interface) starts a stand-in for the child.
What it holds: the run reaches the Job with its limits, its argv, its stdin, its work folder
and its Windows environment, and its figures come from the Job. The Job itself, and the child,
run on a real Windows CPython under Wine (tests/windows/, ``.ci/windows``)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import types
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any, ClassVar

import pytest

from grader.judging.runs import Limits
from grader.judging.timing import cpu_cap_s
from grader.sandbox import portable, runfolder

# the child's part: its ready byte with the 0.5 s of CPU its start took, then the script's (it
# echoes stdin, upper case, and exits with the status it is given)
STAND_IN = (
    "import os, sys\nos.write(1, b'\\x06' + b'%020.6f' % 0.5)\n"
    "sys.stdout.write(sys.stdin.read().upper())\nsys.stdout.flush()\n"
    "sys.stderr.write(os.listdir('.')[0])\nsys.exit(int(sys.argv[1]))\n"
)


class _Job:
    """What winjob.Job offers, recording what the runner asks of it."""

    made: ClassVar[list[_Job]] = []
    exits: ClassVar[int] = 0
    code: ClassVar[str] = STAND_IN

    def __init__(self, *, memory_bytes: int, cpu_s: int, processes: int) -> None:
        self.limits = (memory_bytes, cpu_s, processes)
        self.calls: list[str] = []
        self.started: tuple[list[str], dict[str, str], Path] | None = None
        _Job.made.append(self)

    def start(
        self, argv: Sequence[str], *, env: Mapping[str, str], stdin: IO[bytes], cwd: Path
    ) -> subprocess.Popen[bytes]:
        self.started = (list(argv), dict(env), Path(cwd))
        self.process = subprocess.Popen(
            [sys.executable, "-c", _Job.code, str(_Job.exits)],
            stdin=stdin,
            bufsize=0,  # as winjob's: a read returns what is there, the ready byte as it comes
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
        )
        return self.process

    def kill(self) -> None:
        self.calls.append("kill")
        self.process.kill()  # the tree: here, the stand-in alone

    def cpu_s(self, process: subprocess.Popen[bytes]) -> float:
        """The job's total: the run's own is the 1.25 s after the 0.5 s its start took."""
        assert process is self.process
        return 1.75

    def peak_bytes(self) -> int | None:
        return 7 << 20

    def cpu_limited(self, status: int) -> bool:
        return status == 24  # Windows' 1816 is out of a POSIX exit status's reach

    def close(self) -> None:
        self.calls.append("close")


@pytest.fixture
def windows(monkeypatch: pytest.MonkeyPatch) -> type[_Job]:
    fake = types.ModuleType("grader.sandbox.winjob")
    fake.Job = _Job  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "grader.sandbox.winjob", fake)
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("SYSTEMROOT", r"C:\Windows")
    monkeypatch.setenv("SYSTEMDRIVE", "C:")
    monkeypatch.setenv("WINDIR", r"C:\Windows")
    monkeypatch.setattr(_Job, "made", [])
    return _Job


@pytest.mark.parametrize(("status", "cpu_limited"), [(0, False), (24, True)])
def test_a_windows_run_goes_through_its_job(
    windows: type[_Job], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, status: int,
    cpu_limited: bool,
) -> None:  # fmt: skip
    monkeypatch.setattr(_Job, "exits", status)
    script = tmp_path / "upper.py"
    script.write_text("print(input().upper())\n")
    limits = Limits(time_s=2.0, memory_mb=256)
    done = portable.run(
        sys.executable, str(script), b"hello\n", limits, files={"data.txt": b"1 2\n"}
    )
    (job,) = windows.made
    assert job.limits == (256 << 20, cpu_cap_s(2.0), 64)
    assert job.started is not None
    argv, env, cwd = job.started
    assert argv[:4] == [sys.executable, "-I", "-X", "utf8"]  # UTF-8 open() on Windows too
    assert Path(argv[4]).name == "_portable_child.py"
    assert cwd.name == "work" and Path(argv[5]).parent == cwd.parent
    assert (env["TEMP"], env["TMP"], env["USERPROFILE"]) == (str(cwd),) * 3
    assert (env["SYSTEMROOT"], env["SYSTEMDRIVE"], env["WINDIR"]) == (
        r"C:\Windows",
        "C:",
        r"C:\Windows",
    )
    assert env["PATH"] == os.path.dirname(sys.executable)
    assert (done.stdout, done.stderr, done.over) == (b"HELLO\n", b"data.txt", None)
    assert (done.exit.status, done.exit.cpu_limited) == (status, cpu_limited)
    assert (done.exit.cpu_s, done.exit.peak_bytes, done.exit.sandbox_ready) == (1.25, 7 << 20, True)
    assert job.calls[-2:] == ["kill", "close"]  # the tree goes with the first process
    assert not cwd.parent.exists()


def test_a_windows_run_past_its_time_is_ended_by_its_job(
    windows: type[_Job], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # done at 0.8 s: past its limit, yet before a poll of a second would have looked
    monkeypatch.setattr(
        _Job, "code", "import os, time\nos.write(1, b'\\x06' + b'0' * 20)\ntime.sleep(0.8)\n"
    )
    script = tmp_path / "sleeps.py"
    script.write_text("import time\ntime.sleep(60)\n")
    done = portable.run(sys.executable, str(script), b"", Limits(time_s=0.3))
    assert (done.exit.timed_out, done.exit.sandbox_ready, done.exit.status) == (True, True, -9)


@pytest.mark.parametrize("held", [False, True])
def test_a_windows_runs_folder_goes_with_its_read_only_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, held: bool
) -> None:
    """Windows refuses to delete a read-only file (a script's chmod, or git's objects it
    copied): the folder's removal clears the flag and goes on. Here unlink and rmdir refuse as
    Windows would (root may delete anything on Linux), and one a process holds open refuses
    for good."""
    base = tmp_path / "grade-run-x"
    (base / "work" / "kept").mkdir(parents=True)
    for path in (base / "work" / "kept" / "x", base / "config"):
        path.write_bytes(b"1")
        path.chmod(0o444)
    unlink, rmdir = os.unlink, os.rmdir

    def refusing(real: Any) -> Any:
        def call(path: Any, *, dir_fd: int | None = None) -> None:
            mode = os.stat(path, dir_fd=dir_fd, follow_symlinks=False).st_mode
            if not mode & stat.S_IWUSR or (held and str(path).endswith("config")):
                raise PermissionError(13, "Access is denied", str(path))
            real(path, dir_fd=dir_fd)

        return call

    monkeypatch.setattr(os, "unlink", refusing(unlink))
    monkeypatch.setattr(os, "rmdir", refusing(rmdir))
    monkeypatch.setattr(os, "name", "nt")
    runfolder.remove(base)  # best effort: a file a process still holds stays, and no error
    assert sorted(p.name for p in base.rglob("*")) == (["config"] if held else [])
    assert base.exists() == held
