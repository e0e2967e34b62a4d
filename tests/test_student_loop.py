"""The student's edit-grade loop through the real CLI: the report as it goes (in a pty), Ctrl-C,
case selection (-k, -x, --lf), verbosity (-q, -v) and usage errors in one style."""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import COURSE, read_until

from grader.cli import cli

PASSES = "print(sum(int(x) for x in input().split()))\n"
# right but for negative numbers: fails 02-negative only
NO_NEGATIVES = "print(sum(abs(int(x)) for x in input().split()))\n"


def grade(script: Path, *args: str, env: dict[str, str] | None = None) -> Result:
    argv = ["add", str(script), "--root", str(COURSE), "--format", "plain", *args]
    return CliRunner().invoke(cli, argv, env=env, catch_exceptions=False)


def write(tmp_path: Path, source: str, name: str = "mine.py") -> Path:
    path = tmp_path / name
    path.write_text(source)
    return path


def _start_in_pty(tmp_path: Path, fifo: Path, *args: str) -> tuple[subprocess.Popen[bytes], int]:
    """grade check on a terminal; case 02-negative waits until the test opens ``fifo``."""
    script = write(
        tmp_path,
        "line = input()\n"
        f"if line == '-5 2':\n    open({str(fifo)!r}).read()\n"
        "print(sum(int(x) for x in line.split()))\n",
    )
    os.mkfifo(fifo)
    controller, terminal = pty.openpty()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "grader",
            "add",
            str(script),
            "--root",
            str(COURSE),
            "--sandbox",
            "off",
            "--timeout",
            "60",
            "-j",
            "2",
            *args,
        ],
        stdin=subprocess.DEVNULL,
        stdout=terminal,
        stderr=terminal,
        env={**os.environ, "TERM": "xterm", "NO_COLOR": "1"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    os.close(terminal)
    return proc, controller


@pytest.mark.parametrize("fmt", [(), ("--format", "plain"), ("--format", "rich")])
def test_each_case_is_printed_as_soon_as_it_is_known(tmp_path: Path, fmt: tuple[str, ...]) -> None:
    fifo = tmp_path / "release"
    proc, controller = _start_in_pty(tmp_path, fifo, *fmt)
    seen = bytearray()
    try:
        read_until(controller, b"A first sample", seen)
        read_until(controller, b"running:", seen)  # the status line, while 02 waits
        read_until(controller, b" s of 60 s", seen)  # the waited-for case's time, its limit
        assert b"Negative numbers" not in seen  # 02 is still waiting on the fifo
        with open(fifo, "w") as release:
            release.write("go")
        read_until(controller, b"cases passed", seen)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(controller)
    text = bytes(seen).decode()
    assert text.index("A first sample") < text.index("Negative numbers") < text.index("One number")
    assert "4/4 cases passed" in text


def test_ctrl_c_keeps_what_was_printed_and_exits_130(tmp_path: Path) -> None:
    proc, controller = _start_in_pty(tmp_path, tmp_path / "never")
    seen = bytearray()
    try:
        read_until(controller, b"A first sample", seen)
        os.kill(proc.pid, signal.SIGINT)
        read_until(controller, b"grade: interrupted", seen)
        assert proc.wait(timeout=30) == 130  # a bound far below the 60 s limit of the run
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(controller)
    assert b"Traceback" not in seen
    # the status line ("running: ...") is cleared first: the interrupted line stands alone
    assert b"\r\x1b[Kgrade: interrupted" in seen, seen


def test_k_selects_cases_by_name_or_title(tmp_path: Path) -> None:
    result = grade(write(tmp_path, PASSES), "-k", "negative", "-k", "SINGLE", "--format", "json")
    assert [c["name"] for c in json.loads(result.stdout)["cases"]] == ["02-negative", "03-single"]
    printed = grade(write(tmp_path, PASSES), "-k", "negative", "-k", "SINGLE")  # as it goes
    assert "2/2 cases passed, score 1.00 (2/2 points); 2 of 4 cases\n" in printed.stdout
    none = grade(write(tmp_path, PASSES), "-k", "nothing-like-it")
    assert none.exit_code == 2
    assert "no case matches -k nothing-like-it (the cases: 01-sample," in none.stderr


def test_x_stops_at_the_first_failure(tmp_path: Path) -> None:
    result = grade(write(tmp_path, NO_NEGATIVES), "-x", "--format", "json")
    statuses = [c["status"] for c in json.loads(result.stdout)["cases"]]
    assert statuses == ["passed", "wrong_answer", "skipped", "skipped"]
    assert json.loads(result.stdout)["cases"][2]["message"] == (
        "not run: case 02-negative failed first (-x)"
    )


def test_lf_reruns_what_failed_last_time(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    script = write(tmp_path, NO_NEGATIVES)
    first = grade(script, "--lf", "--format", "json", env=env)
    assert "--lf: no earlier run of this submission here; running every case" in first.stderr
    assert len(json.loads(first.stdout)["cases"]) == 4
    again = grade(script, "--lf", "--format", "json", env=env)
    assert [c["name"] for c in json.loads(again.stdout)["cases"]] == ["02-negative"]
    script.write_text(PASSES)
    fixed = grade(script, "--lf", "--format", "json", env=env)
    assert fixed.exit_code == 0
    after = grade(script, "--lf", "--format", "json", env=env)
    assert "--lf: every case passed last time; running every case" in after.stderr
    assert len(json.loads(after.stdout)["cases"]) == 4


def test_q_shows_one_line_per_case_and_v_every_detail(tmp_path: Path) -> None:
    wrong = write(tmp_path, "print(0)\n")
    quiet = grade(wrong, "-q").stdout
    assert quiet.count("problem") == 1  # the first failure in full, then one line each
    assert len(quiet.splitlines()) < len(grade(wrong).stdout.splitlines())
    right = write(tmp_path, PASSES, "right.py")
    verbose = grade(right, "-v").stdout
    assert verbose.count("input     ") == 3  # the passing cases' details too (not the hidden one's)
    assert "input     " not in grade(right).stdout  # by default a pass is one line
    both = grade(wrong, "-q", "-v")
    assert both.exit_code == 2
    assert both.stderr == "grade: error: -q and -v ask for opposite things: give one\n"


def test_a_piped_check_writes_no_status_line(tmp_path: Path) -> None:
    """The "running" line is for a terminal's stderr: a log or a pipe gets none of it."""
    result = grade(write(tmp_path, PASSES))
    assert result.exit_code == 0
    assert "\x1b" not in result.stderr and "running:" not in result.stderr


def test_a_report_written_to_a_file_keeps_q_v_and_diff(tmp_path: Path) -> None:
    """-o writes the report whole at the end, not as it goes: with -q, -v and --diff still."""
    wrong, right = write(tmp_path, "print(0)\n"), write(tmp_path, PASSES, "right.py")
    report = tmp_path / "report.txt"

    def written(script: Path, *args: str) -> str:
        grade(script, *args, "-o", str(report))
        return report.read_text()

    whole = written(wrong)
    quiet = written(wrong, "-q")
    assert quiet.count("problem") == 1 and len(quiet.splitlines()) < len(whole.splitlines())
    assert written(right, "-v").count("input     ") == 3
    marked = "── expected (-) and your output (+), in full ──"
    assert marked in written(wrong, "--diff") and marked not in whole


@pytest.mark.parametrize(
    ("argv", "code", "expected"),
    [
        (["check", "--bogus", "add", "x.py"], 2, "grade: error: no such option '--bogus'"),
        (["quantize"], 2, "grade: error: missing argument 'SUBMISSION'"),
        (["verif"], 2, "grade: error: no command 'verif'; did you mean 'grade verify'?"),
        (["add", "x.py", "--format", "nope"], 2, "grade: error: invalid value for '--format'"),
        (["help"], 0, "Usage: grade [OPTIONS] COMMAND [ARGS]..."),
        (["help", "batch"], 0, "Usage: grade batch [OPTIONS] EXERCISE"),
        (["-V"], 0, "grade, version"),
    ],
)
def test_usage_errors_come_in_one_style(argv: list[str], code: int, expected: str) -> None:
    result = CliRunner().invoke(cli, argv, prog_name="grade")
    assert result.exit_code == code
    assert expected in result.output
    assert "Error:" not in result.output  # click's own style


@pytest.mark.parametrize(
    ("module", "said"),
    [
        (None, "--watch needs watchfiles: pip install watchfiles"),
        ("raise ImportError('DLL load failed')", "does not load here: DLL load failed"),
    ],
)
def test_watch_says_why_watchfiles_is_missing(
    module: str | None, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Installed but unloadable (its compiled part, as under Wine) is not "pip install it"."""
    from grader.cli.watch import watch_and_regrade
    from grader.judging.errors import UsageError

    monkeypatch.delitem(sys.modules, "watchfiles", raising=False)
    if module is None:
        monkeypatch.setitem(sys.modules, "watchfiles", None)
    else:
        (tmp_path / "watchfiles.py").write_text(module)
        monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(UsageError, match=said):
        watch_and_regrade(tmp_path / "my.py", lambda: pytest.fail("graded"))


def test_the_running_line_shows_the_waited_cases_time_against_its_limit() -> None:
    """'running: 0/4 cases done' said nothing of how long against the limit."""
    import io

    from grader.cli.live import Live

    live = Live(["a", "b"], color=False, verbosity=0, out=io.StringIO(), status=None, limit_s=5)
    started = live._since
    assert live.status_line(0, started + 3.24) == "⠋ running: 0/2 cases done · case 1: 3.2 s of 5 s"
    untimed = Live(["a"], color=False, verbosity=0, out=io.StringIO(), status=None)
    assert untimed.status_line(1, started) == "⠙ running: 0/1 cases done"
