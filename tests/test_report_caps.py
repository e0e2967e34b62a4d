"""Caps on what the grader copies into reports (issue 22, finding 8): one crashing case gave a
24 MB JSON report (the crash message was the whole last line of stderr); a run flooding its
output near the limit on every case gave ~100 MB of JSON, JUnit and Gradescope files, which
GitLab and Gradescope refuse, and a class's gradebook repeats per student."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import COURSE

from grader.judging.text import MESSAGE_MOST, TEXT_MOST, clip

CRASH_WITH_A_HUGE_LINE = 'import sys\nsys.stderr.write("E" * 900_000 + "\\n")\nsys.exit(1)\n'
GRADE = [sys.executable, "-m", "grader", "add"]
FLOOD = 'import sys\nprint("x" * 900_000)\nsys.stderr.write("y" * 900_000)\n'


@pytest.mark.parametrize("fmt", ["json", "junit", "gradescope", "github", "html", "plain"])
@pytest.mark.parametrize("source", [CRASH_WITH_A_HUGE_LINE, FLOOD], ids=["crash", "flood"])
def test_a_report_of_one_submission_stays_small(tmp_path: Path, source: str, fmt: str) -> None:
    script = tmp_path / "s.py"
    script.write_text(source)
    done = subprocess.run(
        [*GRADE, str(script), "--root", str(COURSE), "--format", fmt],
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert len(done.stdout) < 256 * 1024, len(done.stdout)  # 4 cases; ~1 MB for a dozen
    if fmt == "json":
        cases = json.loads(done.stdout)["cases"]
        shown = [c for c in cases if c["visibility"] == "visible"]
        assert all(len(c["message"]) <= MESSAGE_MOST + 40 for c in shown)
        assert any("characters cut" in c["message"] + c.get("stderr", "") for c in shown)


@pytest.mark.parametrize(
    ("text", "most", "kept"),
    [
        ("short", 10, "short"),
        ("x" * 10, 10, "x" * 10),
        ("a" * 7 + "b" * 5, 6, "aaaa … 6 characters cut … bb"),
    ],
)
def test_clip_keeps_head_and_tail(text: str, most: int, kept: str) -> None:
    assert clip(text, most) == kept
    assert TEXT_MOST > MESSAGE_MOST


def test_a_reason_listing_a_folders_files_is_capped(tmp_path: Path) -> None:
    """Red team: a student folder of 20,000 .py files gave a 5 MB error row (the reason lists
    every file) in the CSV, JSON, JUnit and the log line."""
    from grader.batch import discover

    room = tmp_path / "class" / "mallory"
    room.mkdir(parents=True)
    for i in range(400):
        (room / f"{i:04d}{'x' * 150}.py").write_text("print(0)\n")
    (other := tmp_path / "class" / "alice").mkdir()
    (other / "add.py").write_text("print(0)\n")
    rows = {s.name: s for s in discover([str(tmp_path / "class")])}
    problem = rows["mallory"].problem
    assert problem is not None and problem.startswith("expected one .py file in the folder")
    assert len(problem) <= MESSAGE_MOST + 40 and "characters cut" in problem
