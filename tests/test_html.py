"""The HTML report, in a real headless browser: it renders, and a student's output in it is
text, never markup or script."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import COURSE

from grader.cli import cli

ATTACK = (
    "print(\"<script>document.title='pwned'</script>\"\n"
    '      "<img src=x onerror=\\"document.title=\'img\'\\">")\n'
)


def _browser() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no chromium here (.ci/run installs Debian's with apt-get)")


def _report(tmp_path: Path, source: str) -> Path:
    script = tmp_path / "mine.py"
    script.write_text(source)
    page = tmp_path / "report.html"
    args = ["add", str(script), "--root", str(COURSE), "--format", "html", "-o", str(page)]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 1, result.output
    return page


def _chromium(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_student_output_is_text_in_the_page(tmp_path: Path) -> None:
    page = _report(tmp_path, ATTACK)
    dom = _chromium("--dump-dom", page.as_uri()).stdout
    assert "<title>add: 0/4 cases passed</title>" in dom
    assert "pwned" in dom  # shown, as text
    assert "<script" not in dom.lower() and "<img" not in dom.lower()
    assert "&lt;script&gt;document.title='pwned'&lt;/script&gt;" in dom


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_the_page_renders(tmp_path: Path) -> None:
    page = _report(
        tmp_path, "n = input().split()\nprint(sum(map(int, n)) / 0)\n"
    )  # one crash, thrice
    shot = tmp_path / "report.png"
    done = _chromium(f"--screenshot={shot}", "--window-size=1000,1200", page.as_uri())
    assert shot.is_file(), done.stderr
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shot.stat().st_size > 10_000  # a page with text on it, not a blank one
    text = page.read_text()
    assert "also in" in text and "the same mistake as 01-sample, above" in text


def test_a_repeated_failure_still_says_a_hint_not_said_above(tmp_path: Path) -> None:
    """The page said 'the same mistake as 01-sample, above' and nothing else, where 02's own
    hint (the one that may name the bug) had not been said: as the terminal report does. Not
    under a crash that repeats one above: that crash is no case's point (issue 37)."""
    off = "n = input().split()\nprint(sum(map(int, n)) + 1)\n"  # another number each time
    page = _report(tmp_path, off).read_text()
    assert page.count("the same mistake as 01-sample, above") == 2
    assert page.count("Negative numbers count too.") == 1
    assert page.count("Add every number on the line, the last one included.") == 1
    crash = _report(tmp_path, "n = input().split()\nprint(sum(map(int, n)) / 0)\n").read_text()
    assert crash.count("the same mistake as 01-sample, above") == 2
    assert crash.count("Negative numbers count too.") == 0
