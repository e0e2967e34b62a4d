"""The student's other tools, through the real CLI: --diff, grade run, grade show --samples,
--watch (a real file watcher, in a subprocess) and shell completion."""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner, Result
from conftest import COURSE, read_until
from test_render import _outcome

from grader.cli import cli
from grader.cli.watch import watch_and_regrade
from grader.judging.errors import UsageError
from grader.judging.records import Feedback, Report, Verdict

PASSES = "print(sum(int(x) for x in input().split()))\n"
EXTRA = PASSES + "print('debug: done')\n"


def run(*args: str, input: bytes | None = None, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input, env=env, catch_exceptions=False)


def test_diff_shows_everything_with_the_changed_token_marked(tmp_path: Path) -> None:
    script = tmp_path / "mine.py"
    script.write_text("print(sum(int(x) for x in input().split()) + 1)\nprint('bye')\n")
    out = run("add", str(script), "--root", str(COURSE), "--format", "plain", "--diff", "-k", "01")
    assert out.stdout.split("── expected (-) and your output (+), in full ──\n")[1].startswith(
        "     - 6\n     + 7\n       ^\n     + bye\n"
    )


def test_run_shows_the_output_and_the_references_answer(tmp_path: Path) -> None:
    script = tmp_path / "mine.py"
    script.write_text(EXTRA)
    result = run("run", "add", str(script), "--root", str(COURSE), input=b"10 20\n")
    assert result.exit_code == 1
    assert result.stdout == (
        "your output:\n  30\n  debug: done\n(exit code 0, "
        + result.stdout.split("(exit code 0, ")[1].split("\n")[0]
        + "\nreference output:\n  30\nwrong_answer: line 2: extra line 'debug: done'\n"
    )
    invalid = run("run", "add", str(script), "--root", str(COURSE), input=b"ten\n")
    assert "grade: note: this input is outside the statement" in invalid.stderr


def test_run_on_an_input_outside_the_statement_claims_nothing(tmp_path: Path) -> None:
    """Newcomer, in a teacher's copy: a crash on an input the statement does not allow was
    "(the output itself was right)", with nothing to compare with, and the reference that is
    right there was said not to be."""
    script = tmp_path / "mine.py"
    script.write_text("print(sum(int(x) for x in input().split()))\n")
    result = run("run", "add", str(script), "--root", str(COURSE), input=b"ten\n")
    assert result.exit_code == 1
    assert "runtime_error" in result.stdout
    assert "was right" not in result.stdout
    assert "no reference solution here" not in result.stdout
    assert "(no reference output: the input is outside the statement)" in result.stdout


def test_run_without_a_reference_just_runs(tmp_path: Path) -> None:
    course = tmp_path / "course"  # a student's copy: no reference/
    shutil.copytree(COURSE / "exercises", course / "exercises", dirs_exist_ok=True)
    shutil.copytree(COURSE / "cases", course / "cases", dirs_exist_ok=True)
    script = tmp_path / "mine.py"
    script.write_text(PASSES)
    result = run("run", "add", str(script), "--root", str(course), input=b"1 2\n")
    assert result.exit_code == 0
    assert "your output:\n  3\n" in result.stdout
    assert "no reference solution here" in result.stdout
    # where to look instead: the cases, by name
    assert f"to compare with a case's expected output, run: grade add {script} -k NAME" in (
        result.stdout
    )
    assert "(01-sample, 02-negative, 03-single)" in result.stdout  # never the secret 04


@pytest.mark.parametrize("given", [b"-5 2\n", b"-5 2\r\n", b"-5 2"], ids=["lf", "crlf", "no end"])
def test_run_on_a_public_cases_input_judges_it_on_that_case(tmp_path: Path, given: bytes) -> None:
    """A sample's input, run by hand, compared nothing without a reference (a student's copy)
    and said 'run a sample case's input' again; a wrong output exited 0."""
    course = tmp_path / "course"
    shutil.copytree(COURSE / "exercises", course / "exercises", dirs_exist_ok=True)
    shutil.copytree(COURSE / "cases", course / "cases", dirs_exist_ok=True)
    wrong = tmp_path / "wrong.py"
    wrong.write_text("print(sum(abs(int(x)) for x in input().split()))\n")
    result = run("run", "add", str(wrong), "--root", str(course), input=given)
    assert result.exit_code == 1
    assert "expected output (case 02-negative):\n  -3\n" in result.stdout
    assert "wrong_answer: line 1, token 1: expected '-3', got '7'" in result.stdout
    (tmp_path / "right.py").write_text(PASSES)
    right = run("run", "add", str(tmp_path / "right.py"), "--root", str(course), input=given)
    assert right.exit_code == 0 and "passed: output matches" in right.stdout


def test_show_samples_writes_the_sample_cases(tmp_path: Path) -> None:
    result = run("show", "add", "--root", str(COURSE), "--samples", str(tmp_path / "s"))
    assert result.exit_code == 0
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == [
        "01-sample.in",
        "01-sample.out",
        "02-negative.in",
        "02-negative.out",
    ]
    assert (tmp_path / "s" / "01-sample.out").read_text() == "6\n"


def test_watch_regrades_on_every_save(tmp_path: Path) -> None:
    pytest.importorskip("watchfiles")
    script = tmp_path / "mine.py"
    script.write_text("print(0)\n")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "grader",
            "add",
            str(script),
            "--root",
            str(COURSE),
            "--watch",
            "--format",
            "plain",
            "--sandbox",
            "off",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    out = proc.stdout.fileno()
    try:
        first = bytearray()
        read_until(out, b"0/4 cases passed", first)
        script.write_text(PASSES)  # the student saves
        second = bytearray()
        read_until(out, b"4/4 cases passed", second)
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert b"changed; last time 0/4" in err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Stop(Exception):
    """Ends a watch from inside a grading, as Ctrl-C would."""


def _graded(passed: tuple[bool, ...]) -> Feedback:
    verdicts = [Verdict.PASSED if p else Verdict.WRONG_ANSWER for p in passed]
    outcomes = tuple(_outcome(f"0{n + 1}", v, "") for n, v in enumerate(verdicts))
    return Report("add", "mine.py", outcomes).feedback()


def test_watch_grades_each_saved_version_once_and_goes_on_after_a_broken_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each version of the file is graded once: not at a time-out or another file's event,
    not while the file is gone or a folder (half-way through an editor's rename); a save that
    does not grade says why and the watch goes on. On a terminal each grading clears the
    screen; stderr says what the last one found. (A stand-in for watchfiles says when.)"""
    script = tmp_path / "mine.py"
    script.write_text("v1")
    found = {"v1": _graded((True, False)), "v2-": _graded((True, True))}
    versions: list[str] = []

    def once() -> Feedback:
        versions.append(script.read_text())
        if versions[-1] == "broken":
            raise UsageError("mine.py is not UTF-8")
        return found[versions[-1]]

    def watch(folder: Path, **_options: object) -> Iterator[set[tuple[int, str]]]:
        assert folder == tmp_path.resolve()
        yield set()  # half a second, nothing saved
        (tmp_path / "notes.txt").write_text("x")
        yield {(1, str(tmp_path / "notes.txt"))}
        script.write_text("v2-")  # each version a size of its own: a stamp tells them apart
        yield {(2, str(script))}
        yield set()
        script.write_text("broken")
        yield {(2, str(script))}
        script.unlink()
        yield {(3, str(script))}
        script.mkdir()
        yield {(1, str(script))}
        script.rmdir()
        script.write_text("v1")
        yield {(1, str(script))}

    monkeypatch.setitem(sys.modules, "watchfiles", SimpleNamespace(watch=watch))
    out, err = _Terminal(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    watch_and_regrade(script, once)
    assert versions == ["v1", "v2-", "broken", "v1"]
    assert out.getvalue() == "\x1b[2J\x1b[H" * 3
    assert err.getvalue() == (
        f"grade: {script} changed; last time 1/2: ✓01 ✗02\n"
        f"grade: {script} changed; last time 2/2: ✓01 ✓02\n"
        "grade: error: mine.py is not UTF-8\n"
        f"grade: {script} changed; last time 2/2: ✓01 ✓02\n"
    )


def test_ctrl_c_while_the_watch_waits_ends_it_as_an_interrupt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C most often lands while watchfiles waits for a save. watchfiles catches it there
    and ends its loop quietly unless asked to raise it: the watch would then end as if done,
    exit 0, where the CLI's Ctrl-C is 130 (the real-process test's SIGINT may land in a
    grading instead, so it did not tell). The stand-in does what watchfiles does with the
    option."""
    script = tmp_path / "mine.py"
    script.write_text("print(1)\n")

    def watch(folder: Path, **options: object) -> Iterator[set[tuple[int, str]]]:
        try:
            raise KeyboardInterrupt  # the user's Ctrl-C, as the wait sees it
        except KeyboardInterrupt:
            if options.get("raise_interrupt", True):
                raise
        yield set()  # never reached when it raises

    monkeypatch.setitem(sys.modules, "watchfiles", SimpleNamespace(watch=watch))
    with pytest.raises(KeyboardInterrupt):
        watch_and_regrade(script, lambda: _graded((True,)))


def test_a_save_made_while_the_first_grading_runs_is_graded(tmp_path: Path) -> None:
    """Saved before the watcher listens, a version makes no event: the watch still finds it
    at its next half-second look (a real watchfiles)."""
    pytest.importorskip("watchfiles")
    script = tmp_path / "mine.py"
    script.write_text("print(0)\n")
    versions: list[str] = []

    def once() -> Feedback:
        versions.append(script.read_text())
        if len(versions) == 1:
            script.write_text(PASSES)
            return _graded((False,))
        raise _Stop

    ended: list[BaseException] = []

    def watching() -> None:
        try:
            watch_and_regrade(script, once)
        except _Stop as stop:
            ended.append(stop)

    thread = threading.Thread(target=watching, daemon=True)
    thread.start()
    thread.join(60)  # a bound for a watch that never looks again, not a sync
    assert versions == ["print(0)\n", PASSES] and ended


@pytest.mark.parametrize(
    ("words", "cword", "expected"),
    [
        ("grade qu", "1", "plain,quantize"),
        ("grade show spe", "2", "plain,specdec"),
        ("grade quantize --form", "2", "plain,--format"),
        ("grade ver", "1", "plain,verify"),
        (f"grade show --root {COURSE} a", "4", "plain,add"),  # the course the command names
    ],
)
def test_shell_completion(words: str, cword: str, expected: str) -> None:
    env = {"_GRADE_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": cword}
    done = subprocess.run(
        [sys.executable, "-c", "from grader.cli import main; main()"],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        cwd="/",
    )
    assert expected in done.stdout.splitlines(), done.stdout + done.stderr


def test_run_in_a_students_copy_of_a_checker_exercise(tmp_path: Path) -> None:
    """No reference to compare with: the checker is not asked to judge against nothing."""
    course = tmp_path / "course"
    shutil.copytree(COURSE.parent / "checker_course", course)
    (course / "reference" / "divisor" / "solution.py").unlink()  # only the checker ships
    script = tmp_path / "mine.py"
    script.write_text("input()\nprint(3)\n")
    result = run("run", "divisor", str(script), "--root", str(course), input=b"12\n")
    assert result.exit_code == 0, result.output
    assert "your output:\n  3\n" in result.stdout


def test_watch_writes_a_files_name_and_an_error_as_escaped_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file's name is the student's (any bytes): a terminal control or a CI command in it
    reaches stderr as visible text, as every other line grade writes there."""
    script = tmp_path / "\x1b[31mred\u202e::error::x.py"
    script.write_text("v1")
    calls: list[str] = []

    def once() -> Feedback:
        calls.append(script.read_text())
        if len(calls) == 2:
            raise UsageError(f"{script.name} is not UTF-8")
        return _graded((True,))

    def watch(_folder: Path, **_options: object) -> Iterator[set[tuple[int, str]]]:
        script.write_text("v2-")
        yield {(2, str(script))}

    monkeypatch.setitem(sys.modules, "watchfiles", SimpleNamespace(watch=watch))
    err = io.StringIO()
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    monkeypatch.setattr(sys, "stderr", err)
    watch_and_regrade(script, once)
    shown = err.getvalue()
    assert "\x1b" not in shown and "\u202e" not in shown, shown
    assert "\\x1b[31mred\\u202e::error::x.py changed" in shown
    assert "grade: error: \\x1b[31mred\\u202e::error::x.py is not UTF-8" in shown
