"""Folders a grade process keeps in a shared place, and which of them a later grader removes:
the rule (``heldfolders``) as a table, and a grader killed mid-run whose folder the next one
takes away (portable and sandboxed runs)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.sandbox import heldfolders, portable

HOLD = """
import sys
from grader.sandbox import heldfolders
path, held = heldfolders.make(sys.argv[1], "grade-test-")
print(path, flush=True)
sys.stdin.read()
"""
HOUR_AGO = time.time() - 3600
needs_locks = pytest.mark.skipif(not heldfolders.LOCKS, reason="no flock: nothing held or removed")


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """Another process that made a folder in ``tmp_path`` and holds it until its stdin closes."""
    with subprocess.Popen(
        [sys.executable, "-c", HOLD, str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stdout is not None
        yield proc, Path(proc.stdout.readline().strip())
        proc.kill()


def _sweep(place: Path) -> list[str]:
    removed: list[str] = []
    heldfolders.remove_stale(str(place), "grade-test-", removed.append)
    return [Path(p).name for p in removed]


@needs_locks
@pytest.mark.parametrize(
    ("name", "age", "removed"),
    [
        ("grade-test-old", 3600, True),  # a killed grader's
        ("grade-test-recent", 0, False),  # an older grade's, mid-run; or not yet held
        ("grade-other-old", 3600, False),  # another prefix: not this sweep's
    ],
)
def test_an_unheld_folder_is_removed_once_nothing_changed_in_it_for_a_while(
    tmp_path: Path, name: str, age: int, removed: bool
) -> None:
    folder = tmp_path / name
    folder.mkdir()
    os.utime(folder, (time.time() - age, time.time() - age))
    assert _sweep(tmp_path) == ([name] if removed else [])


@needs_locks
def test_a_held_folder_stays_however_old_until_its_process_is_killed(
    tmp_path: Path, holder: tuple[subprocess.Popen[str], Path]
) -> None:
    proc, folder = holder
    os.utime(folder, (HOUR_AGO, HOUR_AGO))
    assert _sweep(tmp_path) == []
    proc.kill()  # SIGKILL: its lock goes with it
    proc.wait()
    assert _sweep(tmp_path) == [folder.name]


@pytest.mark.skipif(os.geteuid() != 0, reason="a folder of another uid: root makes one")
def test_another_uids_folder_is_never_removed(tmp_path: Path) -> None:
    folder = tmp_path / "grade-test-theirs"
    folder.mkdir()
    os.chown(folder, 65534, 65534)
    os.utime(folder, (HOUR_AGO, HOUR_AGO))
    assert _sweep(tmp_path) == []


@needs_locks
def test_a_link_named_like_a_folder_is_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.mkdir()
    os.utime(target, (HOUR_AGO, HOUR_AGO))
    (tmp_path / "grade-test-link").symlink_to(target)
    assert _sweep(tmp_path) == []


@needs_locks
def test_a_folder_removed_before_it_was_held_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another grader's sweep may take a new folder between its mkdir and its lock."""
    real_open = os.open
    taken: list[str] = []

    def open_after_a_sweep(path: str, flags: int, *args: int) -> int:
        if not taken and str(path).startswith(str(tmp_path)):
            taken.append(str(path))
            os.rmdir(path)
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", open_after_a_sweep)
    path, held = heldfolders.make(str(tmp_path), "grade-test-")
    monkeypatch.undo()
    try:
        assert taken and path != taken[0] and os.path.isdir(path)
    finally:
        heldfolders.release(held)


# A grader with one run of a script that sleeps; killed once the run's folder is laid out
GRADER = """
import sys
from grader.sandbox import Limits, Sandbox
box = Sandbox.create()
box.run([sys.executable, sys.argv[1]], stdin=b"the case's input", limits=Limits(time_s=60))
"""


def _laid_out(place: Path) -> bool:
    """A run folder of the case's run is there, its config written last."""
    for config in place.glob("grade-run-*/config"):
        try:
            if (config.parent / "stdin").read_bytes() == b"the case's input":
                return True
        except OSError:
            continue  # a probe's folder, removed meanwhile
    return False


@needs_locks
@pytest.mark.parametrize("runner", ["sandboxed", "portable"])
def test_a_killed_graders_run_folder_is_removed_by_the_next_grader(
    tmp_path: Path, runner: str
) -> None:
    place = tmp_path / "tmp"  # TMPDIR: every run folder goes there, on any runner
    place.mkdir()
    script = tmp_path / "sleeper.py"
    script.write_text("import time\ntime.sleep(60)\n")
    env = {**os.environ, "TMPDIR": str(place)}
    if runner == "portable":
        env[portable.PORTABLE_ENV] = "1"
    with subprocess.Popen([sys.executable, "-c", GRADER, str(script)], env=env) as grader:
        deadline = time.monotonic() + 60
        while not _laid_out(place):  # the case's run is starting (not the layers' probe)
            assert grader.poll() is None and time.monotonic() < deadline, "no run folder"
            time.sleep(0.01)
        grader.kill()
    (left,) = place.glob("grade-run-*")
    assert _laid_out(place)
    os.utime(left, (HOUR_AGO, HOUR_AGO))
    script.write_text("print('ok')\n")
    done = subprocess.run([sys.executable, "-c", GRADER, str(script)], env=env, timeout=120)
    assert done.returncode == 0
    assert not left.exists()
    assert list(place.iterdir()) == []  # its own folder went too
