"""The student's edit-grade loop through the real CLI: the report as it goes (in a pty), Ctrl-C,
case selection (-k, -x, --lf), verbosity (-q, -v) and usage errors in one style."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from conftest import COURSE, read_until
from test_render import _outcome

from grader.cli import cli
from grader.cli.live import EXITFIRST_TIP, Live
from grader.judging.records import Feedback, FuzzFeedback, Report, Verdict

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


def test_q_v_and_diff_shape_a_report_written_to_a_file_too(tmp_path: Path) -> None:
    """-o writes the report at the end, not as it goes: -q, -v and --diff still apply, the
    text is plain, and stderr says where it went."""
    right, wrong = write(tmp_path, PASSES, "right.py"), write(tmp_path, "print(0)\n")
    report = tmp_path / "report.txt"

    def written(script: Path, *args: str) -> str:
        result = grade(script, *args, "-o", str(report))
        assert result.stdout == ""
        assert result.stderr.endswith(f"grade: wrote {report.absolute()}\n")
        return report.read_text()

    assert written(right, "-v").count("input     ") == 3  # as on stdout (the hidden one's not)
    assert written(right).count("input     ") == 0
    assert len(written(wrong, "-q").splitlines()) < len(written(wrong).splitlines())
    with_diff = written(wrong, "--diff", "--format", "rich")
    assert "── expected (-) and your output (+), in full ──" in with_diff
    assert "\x1b" not in with_diff


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
        (
            "raise ImportError('DLL load failed')",
            "--watch needs watchfiles, which does not load here: DLL load failed",
        ),
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
    with pytest.raises(UsageError) as raised:
        watch_and_regrade(tmp_path / "my.py", lambda: pytest.fail("graded"))
    assert str(raised.value) == said  # the whole line the student sees


def test_the_running_line_shows_the_waited_cases_time_against_its_limit() -> None:
    """'running: 0/4 cases done' said nothing of how long against the limit."""
    live = _live(["a", "b"], limit_s=5)
    live.start("add", "mine.py", "")  # the first case is waited for from here
    started = live._since
    assert live.status_line(0, started + 3.24) == "⠋ running: 0/2 cases done · case 1: 3.2 s of 5 s"
    untimed = _live(["a"])
    assert untimed.status_line(1, started) == "⠙ running: 0/1 cases done"
    # each case reported counts, and the next one's time starts when the last was reported
    three = _live(["a", "b", "c"], limit_s=5)
    for case in _feedback(Verdict.PASSED, Verdict.PASSED).cases:
        three.on_case(case)
    reported = three._since
    assert (
        three.status_line(2, reported + 0.5) == "⠹ running: 2/3 cases done · case 3: 0.5 s of 5 s"
    )
    three.on_case(_feedback(Verdict.PASSED).cases[0])
    assert three.status_line(3, three._since + 9) == "⠸ running: 3/3 cases done"  # none waited


def _live(titles: list[str], **options: Any) -> Live:
    given: dict[str, Any] = {"color": False, "verbosity": 0, "diff": False, "tip_exitfirst": False}
    given.update(options)
    return Live(titles, out=io.StringIO(), status=None, **given)


def _feedback(*verdicts: Verdict) -> Feedback:
    outcomes = tuple(_outcome(f"0{n + 1}", v, "") for n, v in enumerate(verdicts))
    return Report("add", "mine.py", outcomes).feedback()


class _Status(io.StringIO):
    """A terminal's stderr that tells when the spinner has drawn ``lines`` running lines."""

    def __init__(self, lines: int) -> None:
        super().__init__()
        self.lines = lines
        self.drawn = threading.Event()

    def write(self, text: str) -> int:
        written = super().write(text)
        if self.getvalue().count("running:") >= self.lines:
            self.drawn.set()
        return written


def test_the_spinner_turns_at_each_redraw_and_its_line_is_left_clean() -> None:
    status = _Status(3)
    live = Live(
        ["a"],
        color=False,
        verbosity=0,
        diff=False,
        out=io.StringIO(),
        status=status,
        tip_exitfirst=False,
    )
    live.start("add", "mine.py", "")
    assert status.drawn.wait(60)  # a bound for a spinner that never draws, not a sync
    live.finish(_feedback(Verdict.PASSED), selected="")
    live.stop()  # again, as Ctrl-C during --fuzz does after the summary: no error
    assert re.findall(r"(.) running:", status.getvalue())[:3] == ["⠋", "⠙", "⠹"]
    assert status.getvalue().endswith("\r\x1b[K")


def test_the_x_tip_is_dim_beside_the_time_out_and_fuzzing_ends_the_report() -> None:
    out = io.StringIO()
    live = Live(
        ["a"], color=True, verbosity=0, diff=False, out=out, status=None, tip_exitfirst=True
    )
    live.on_case(_feedback(Verdict.TIMEOUT).cases[0])
    assert f"\x1b[2m     {EXITFIRST_TIP}" in out.getvalue()
    live.fuzz(FuzzFeedback(seed=3, count=5, tried=5))
    assert "fuzz: 5 generated inputs (seed 3): no disagreement" in out.getvalue()
