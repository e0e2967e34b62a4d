"""File and folder names a student controls, as any bytes, and folders the grader cannot read:
each is that submission's row, shown escaped, in every gradebook format; never a traceback and
never a class without a gradebook (issue 22, findings 5 and 6)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import COURSE
from test_sandbox_findings import PROJECT, _system_python, _user

from grader.cli import cli
from grader.model.resources import Root

SOLUTION = COURSE / "reference" / "add" / "solution.py"


def _class_with_latin1_names(room: Path) -> None:
    """What unzipping a Latin-1 or CP437 archive gives: names that are not UTF-8."""
    room.mkdir()
    shutil.copy(SOLUTION, room / "alice.py")
    raw, text = os.fsencode(room), SOLUTION.read_bytes()
    Path(os.fsdecode(raw + b"/bob\xff.py")).write_bytes(text)
    os.mkdir(raw + b"/carol\xe9")
    Path(os.fsdecode(raw + b"/carol\xe9/add.py")).write_bytes(text)


def test_names_that_are_not_utf8_are_graded_and_written_escaped(
    course: Root, tmp_path: Path
) -> None:
    """grade batch --json/--csv died with a UnicodeEncodeError (no gradebook for the whole
    class), and such a submission got grader_error on every case (its name in the run's
    mounts)."""
    room = tmp_path / "class"
    _class_with_latin1_names(room)
    out = {kind: tmp_path / f"g.{kind}" for kind in ("json", "csv", "xml", "md")}
    args = ["batch", "add", str(room), "--root", str(course.path), "--json", str(out["json"])]
    args += ["--csv", str(out["csv"]), "--junit", str(out["xml"]), "--summary", str(out["md"])]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    book = json.loads(out["json"].read_text(encoding="utf-8"))
    rows = {s["submission"]: s for s in book["submissions"]}
    assert sorted(rows) == ["alice", "bob\\xff", "carol\\xe9"]
    assert all(r["report"]["passed"] == 4 for r in rows.values())
    assert rows["bob\\xff"]["path"].endswith("bob\\xff.py")
    assert "bob\\xff" in out["csv"].read_text(encoding="utf-8")
    ET.parse(out["xml"])  # well-formed XML
    assert "3 submissions, 3 graded" in out["md"].read_text(encoding="utf-8")
    assert "bob\\xff" in result.stdout


def test_a_student_file_whose_name_is_not_utf8_is_checked(course: Root, tmp_path: Path) -> None:
    script = os.fsencode(tmp_path) + b"/bob\xff.py"
    Path(os.fsdecode(script)).write_bytes(SOLUTION.read_bytes())
    done = subprocess.run(
        [sys.executable, "-m", "grader", "add", script, "--root", str(course.path)],
        capture_output=True,
        env={**os.environ, "NO_COLOR": "1"},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert b"bob\\xff.py" in done.stdout and b"4/4 cases passed" in done.stdout


LIST_CLASS = """
import json, sys
from grader.running.batch import discover
print(json.dumps([[s.name, s.problem] for s in discover([sys.argv[1]])]))
"""


@pytest.mark.slow  # a process of its own, as an ordinary user
def test_an_unreadable_student_folder_is_that_students_row() -> None:
    """A folder of mode 000 (as unzip or tar may restore it) stopped a batch run by a
    non-root grader with a traceback: nobody was graded."""
    ids = _user()
    python = _system_python()
    if ids is None or python is None:
        pytest.skip("no ordinary user, or no interpreter it can run, on this machine")
    scratch = Path(tempfile.mkdtemp(prefix="grade-unreadable-"))
    try:
        scratch.chmod(0o755)
        room = scratch / "class"
        for name in ("alice", "bob"):
            (room / name).mkdir(parents=True)
            shutil.copy(SOLUTION, room / name / "add.py")
        (room / "bob").chmod(0o000)
        for path in (room, room / "alice", room / "alice" / "add.py"):
            os.chown(path, *ids)
        # discovery, where the listing failed: the system's Python, which has the grader's
        # listing code but not click, as that user
        done = subprocess.run(
            [python, "-c", LIST_CLASS, str(room)],
            capture_output=True,
            text=True,
            user=ids[0],
            group=ids[1],
            extra_groups=[],
            cwd="/",
            env={"PATH": os.defpath, "PYTHONPATH": str(PROJECT), "HOME": "/"},
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        rows = dict(json.loads(done.stdout))
        assert rows == {"alice": None, "bob": "cannot be read: Permission denied"}
    finally:
        (scratch / "class" / "bob").chmod(0o755)
        shutil.rmtree(scratch, ignore_errors=True)


def test_two_submissions_of_one_name_are_rows_not_the_end_of_the_batch(
    course: Root, tmp_path: Path
) -> None:
    """Red team: bob.py beside bob/ (or two names that escape alike) stopped the batch with
    exit 2 and no rows for anyone."""
    room = tmp_path / "class"
    (room / "bob").mkdir(parents=True)
    shutil.copy(SOLUTION, room / "bob" / "s.py")
    shutil.copy(SOLUTION, room / "bob.py")
    shutil.copy(SOLUTION, room / "alice.py")
    out = tmp_path / "g.json"
    args = ["batch", "add", str(room), "--root", str(course.path), "--json", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    rows = {s["submission"]: s for s in json.loads(out.read_text())["submissions"]}
    assert rows["alice"]["report"]["passed"] == 4
    clashes = [r for n, r in rows.items() if n.startswith("bob (")]
    assert len(clashes) == 2 and all(r["report"] is None for r in clashes)
    assert all("two submissions are named bob" in r["error"] for r in clashes)
