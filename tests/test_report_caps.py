"""Caps on what the grader copies into reports (issue 22, finding 8): one crashing case gave a
24 MB JSON report (the crash message was the whole last line of stderr); a run flooding its
output near the limit on every case gave ~100 MB of JSON, JUnit and Gradescope files, which
GitLab and Gradescope refuse, and a class's gradebook repeats per student."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import PlanFactory

from grader.judging.printed import MESSAGE_MOST, TEXT_MOST, clip
from grader.model.spec import Exercise
from grader.render import FORMATS, render
from grader.running.grading import grade

CRASH_WITH_A_HUGE_LINE = 'import sys\nsys.stderr.write("E" * 900_000 + "\\n")\nsys.exit(1)\n'
FLOOD = 'import sys\nprint("x" * 900_000)\nsys.stderr.write("y" * 900_000)\n'
# an unterminated string of control characters: a 1 MB syntax error, each one shown as \x01
# (issue 38, finding 5: 3.9 MB plain and HTML reports)
HUGE_SYNTAX_ERROR = 'x = "' + "\x01" * 1_000_000 + "\n"


@pytest.mark.parametrize(
    "source",
    [CRASH_WITH_A_HUGE_LINE, FLOOD, HUGE_SYNTAX_ERROR],
    ids=["crash", "flood", "compile-error"],
)
def test_a_report_of_one_submission_stays_small(
    tmp_path: Path, source: str, add: Exercise, plan_of: PlanFactory
) -> None:
    """Graded once, rendered in every format (each a pure function of the same feedback)."""
    script = tmp_path / "s.py"
    script.write_text(source)
    feedback = grade(plan_of(add), script).feedback()
    assert feedback.exit_code == 1
    for name in FORMATS:
        shown = render(name, feedback)
        assert len(shown.encode()) < 256 * 1024, (name, len(shown))  # 4 cases; ~1 MB a dozen
    if source is HUGE_SYNTAX_ERROR:
        assert "characters cut" in feedback.compile_error
        assert len(feedback.compile_error) <= TEXT_MOST + 40
        return
    cases = json.loads(render("json", feedback))["cases"]
    visible = [c for c in cases if c["visibility"] == "visible"]
    assert all(len(c["message"]) <= MESSAGE_MOST + 40 for c in visible)
    assert any("characters cut" in c["message"] + c.get("stderr", "") for c in visible)
    assert all(len(c.stdout) <= TEXT_MOST + 40 for c in feedback.cases)


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
    from grader.running.batch import discover

    room = tmp_path / "class" / "mallory"
    room.mkdir(parents=True)
    for i in range(400):
        (room / f"{i:04d}{'x' * 150}.py").write_text("print(0)\n")
    (other := tmp_path / "class" / "alice").mkdir()
    (other / "add.py").write_text("print(0)\n")
    rows = {s.name: s for s in discover([str(tmp_path / "class")])}
    problem = rows["mallory"].problem
    assert problem is not None and problem.startswith(
        "expected one .py file or notebook in the folder"
    )
    assert len(problem) <= MESSAGE_MOST + 40 and "characters cut" in problem
