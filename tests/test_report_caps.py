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
