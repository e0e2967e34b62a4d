"""Student text in a CI log is data (issue 22, finding 7): GitHub's runner trims leading
whitespace before "::command::" and reads the legacy "##[command]" anywhere in a line; GitLab
opens and closes sections with "section_start:" / "section_end:" lines; both pass ANSI on. A
student's stderr, a syntax error's line and a folder name reached logs in those forms through
the plain report and grade batch's lines. The consumers' rules are modelled here and every
sink's output is read by them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import COURSE

from grader.render.escape import log_safe, safe

HOSTILE = [
    "::add-mask::hunter2",
    "   ::stop-commands::endtoken",
    "\t::error file=x.py::you failed",
    "::set-output name=score::100",
    "x ##[set-output name=score;]100",
    "##[error]fake failure",
    "section_start:1700000000:fake_section",
    "section_end:1700000000:fake_section",
    "\x1b[2J\x1b[31mred",
    "bell\x07",
]


def github_commands(log: str) -> list[str]:
    """Lines GitHub's runner would act on."""
    return [line for line in log.splitlines() if line.lstrip().startswith("::") or "##[" in line]


def gitlab_markers(log: str) -> list[str]:
    """GitLab's section markers, and any raw escape or bell (its log renders ANSI)."""
    found = re.findall(r"^\s*section_(?:start|end):\d+:", log, flags=re.M)
    return found + [c for c in log if c in "\x1b\x07"]


def test_the_consumer_models_see_every_hostile_line() -> None:
    raw = "\n".join(HOSTILE)
    assert len(github_commands(raw)) == 6
    assert len(gitlab_markers(raw)) == 2 + 3


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("::add-mask::hunter2", "\\x3a:add-mask::hunter2"),
        ("   ::stop-commands::endtoken", "   \\x3a:stop-commands::endtoken"),
        ("x ##[set-output name=score;]100", "x #\\x23[set-output name=score;]100"),
        ("section_start:1700000000:s", "\\x73ection_start:1700000000:s"),
        ("a::b ## [ok]", "a::b ## [ok]"),  # not a command anywhere: unchanged
        (
            "x ##vso[task.setvariable variable=PASS]1",
            "x #\\x23vso[task.setvariable variable=PASS]1",
        ),
        ("\x1b[2Jred", "\\x1b[2Jred"),
    ],
)
def test_the_log_encoder_table(line: str, shown: str) -> None:
    assert log_safe(safe(line)) == shown


def test_the_log_encoder_looks_at_every_line_of_a_block() -> None:
    """A report is many lines at once: a command on any of them is written as data."""
    block = "case 1 passed\n  ::error::fake\nok\n##[warning]fake"
    assert log_safe(block) == "case 1 passed\n  \\x3a:error::fake\nok\n#\\x23[warning]fake"
    assert github_commands(log_safe(block)) == []


def _grade(*args: str | bytes, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "grader", *args],
        capture_output=True,
        env={**os.environ, "NO_COLOR": "1"},
        cwd=cwd,
        timeout=120,
    )


def _no_command_in(log: str) -> None:
    assert github_commands(log) == [], github_commands(log)
    assert gitlab_markers(log) == [], gitlab_markers(log)


@pytest.mark.parametrize("fmt", ["plain", "rich"])
def test_a_students_output_never_commands_the_runner(tmp_path: Path, fmt: str) -> None:
    script = tmp_path / "s.py"
    text = "\n".join(HOSTILE)
    script.write_text(
        f"import sys\nprint({text!r})\nsys.stderr.write({text!r})\nraise SystemExit(1)\n"
    )
    done = _grade("add", str(script), "--root", str(COURSE), "--format", fmt, "-v")
    assert done.returncode == 1, done.stderr
    out = done.stdout.decode()
    assert "add-mask" in out and "fake failure" in out  # shown, as data
    if fmt == "plain":
        _no_command_in(out)
    else:  # the report's own colours are ANSI; nothing of the student's is
        assert github_commands(out) == []
        assert "\x1b[2J" not in out and "\x07" not in out


def test_a_syntax_errors_line_never_commands_the_runner(tmp_path: Path) -> None:
    script = tmp_path / "s.py"
    script.write_text("::add-mask::hunter2 ##[error]x\n")
    done = _grade("add", str(script), "--root", str(COURSE), "--format", "plain")
    assert done.returncode == 1
    _no_command_in(done.stdout.decode())


def test_folder_names_never_command_the_runner(tmp_path: Path) -> None:
    room = tmp_path / "class"
    for name in ("::add-mask::s3cret", "##[error]bob", "section_start:1:x"):
        (room / name).mkdir(parents=True)
        (room / name / "add.py").write_text("print(0)\n")
    done = _grade("batch", "add", str(room), "--root", str(COURSE))
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert "add-mask" in out
    _no_command_in(out)


def test_an_error_quoting_a_file_name_never_commands_the_runner(tmp_path: Path) -> None:
    missing = tmp_path / "::add-mask::s3cret ##[error]x.py"
    done = _grade("add", str(missing), "--root", str(COURSE))
    assert done.returncode == 2
    err = done.stderr.decode()
    assert "does not exist" in err
    _no_command_in(err)


def test_a_walked_up_courses_name_never_commands_the_runner(tmp_path: Path) -> None:
    """A student's repository may hold its own grade.toml: its name reaches stderr in the
    "graded by the course" line (issue 38, finding 10)."""
    course = tmp_path / "repo"
    shutil.copytree(COURSE, course)
    (course / "grade.toml").write_text(
        'name = "x ::add-mask::s3cret\\n::error::boom\\r##[error]y\\u001b[2J"\n'
    )
    (course / "s.py").write_text("print(sum(int(x) for x in input().split()))\n")
    done = _grade("add", "s.py", cwd=course)
    assert done.returncode == 0, done.stderr
    err = done.stderr.decode()
    assert "graded by the course x ::add-mask::s3cret" in err  # the name, as data
    _no_command_in(err)
    assert len([line for line in err.splitlines() if "graded by the course" in line]) == 1


def test_a_class_summary_shows_names_literally(tmp_path: Path) -> None:
    """Red team: a folder name became a link, an image or bold text in the class summary
    (its cells escaped HTML and pipes only)."""
    room = tmp_path / "class"
    for name in ("![x](https:evil.example?p.png)", "[click](https:evil.example)**bold**"):
        (room / name).mkdir(parents=True)
        (room / name / "add.py").write_bytes(b"\xff\xfe")  # not UTF-8: a "not gradable" row
    summary = tmp_path / "s.md"
    done = _grade("batch", "add", str(room), "--root", str(COURSE), "--summary", str(summary))
    assert done.returncode == 0, done.stderr
    text = summary.read_text()
    assert "![x](" not in text and "[click](" not in text and "**bold**" not in text
    assert "\\!\\[x\\]\\(https\\:evil" in text


GITHUB = ["--format", "github"]


def test_github_annotations_show_controls_and_bidi_escaped(tmp_path: Path) -> None:
    """Red team: --format github passed raw escapes, bidi and zero-width characters from a
    student's stderr and file name into the annotation and the job summary."""
    script = tmp_path / "x\u202eyp.py"
    script.write_text(
        "import sys\n"
        'sys.stderr.write("\\x1b]8;;https://evil.example\\x07click\\x1b]8;;\\x07 \\u202egnp\\n")\n'
        "sys.exit(1)\n"
    )
    summary = tmp_path / "summary.md"
    done = subprocess.run(
        [sys.executable, "-m", "grader", "add", str(script), "--root", str(COURSE), *GITHUB],
        capture_output=True,
        env={**os.environ, "GITHUB_STEP_SUMMARY": str(summary)},
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    for text in (done.stdout.decode(), summary.read_text() if summary.exists() else ""):
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "\\u202e" in done.stdout.decode()
