"""Feedback that teaches: one message per mistake, advice for recognised mistakes, and evidence
for time-outs and output floods. Real scripts, graded by the real CLI on the fixture course."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import COURSE

from grader.cli import cli


def grade(script: Path, *args: str) -> Result:
    argv = ["add", str(script), "--root", str(COURSE), "--format", "plain", *args]
    return CliRunner().invoke(cli, argv, catch_exceptions=False)


def script(tmp_path: Path, source: str, name: str = "mine.py") -> Path:
    path = tmp_path / name
    path.write_text(source)
    return path


def test_the_same_mistake_is_shown_once(tmp_path: Path) -> None:
    crash = script(tmp_path, "n = input().split()\nprint(sum(map(int, n)) / 0)\n")
    out = grade(crash).stdout  # printed as it goes: a repeat points back
    assert out.count("problem") == 1
    assert out.count("the same mistake as 01-sample, above") == 2
    # the first case's hint only: a crash on every case is none's point (issue 37)
    assert out.count("this case checks:") == 1 and "Negative numbers count too" not in out
    report = tmp_path / "report.txt"
    assert grade(crash, "--output", str(report)).exit_code == 1
    written = report.read_text()  # written at the end: the first also lists the others
    assert written.count("problem") == 1
    assert "also in   02-negative, 03-single" in written


def test_one_kind_of_difference_at_one_place_is_one_mistake(tmp_path: Path) -> None:
    """An off-by-one prints 7 for 6 and -2 for -3: another number at the same place, one bug
    printed in full 3 times before (issue 37); the repeats still say their own hints."""
    off_by_one = script(tmp_path, "print(sum(int(x) for x in input().split()) + 1)\n")
    out = grade(off_by_one).stdout
    assert out.count("problem") == 1 and out.count("the same mistake as 01-sample, above") == 2
    assert "Negative numbers count too." in out  # 02-negative's, not said above
    written = script(tmp_path, "print(float(sum(int(x) for x in input().split())))\n", "f.py")
    out = grade(written).stdout  # 6.0 for 6: a number written otherwise, once
    assert out.count("problem") == 1 and out.count("the same mistake as 01-sample, above") == 2


def test_a_compile_error_is_said_once_without_hints(tmp_path: Path) -> None:
    out = grade(script(tmp_path, "def f(:\n    pass\n")).stdout
    assert out.count("does not compile") == 1
    assert "hint" not in out and "problem" not in out


# Two rows end to end in the default suite (a rule on the student's output, one on their
# folder); every rule is a row of test_advice.py; the rest here in CI's slow pass (45 s)
_SLOW = pytest.mark.slow


@pytest.mark.parametrize(
    ("source", "advice"),
    [
        pytest.param(
            "print(sum(int(x) for x in input('numbers? ').split()))\n",
            "advice    the first line starts with 'numbers?', which the statement does not ask",
            id="prompt",
        ),
        pytest.param(
            "n = input().split()\nprint('read', n)\nprint(sum(map(int, n)))\n",
            "advice    1 line came before the expected line 1: a prompt",
            id="debug print",
            marks=_SLOW,
        ),
        pytest.param(
            "def solve(line):\n    return sum(map(int, line.split()))\n\nsolve(input())\n",
            "advice    it printed nothing on stdout: is the answer print()ed",
            id="empty output",
            marks=_SLOW,
        ),
        pytest.param(
            "from helpers import total\nprint(total(input()))\n",
            "advice    only the submitted file is graded: helpers beside it is not there",
            id="sibling module",
        ),
        pytest.param(
            "import sys\nwhile True:\n    line = input()\n    print(sum(map(int, line.split())))\n",
            "advice    input() was called after the last line of the input (EOFError)",
            id="EOFError",
            marks=_SLOW,
        ),
        pytest.param(
            "print([sum(int(x) for x in input().split())])\n",
            "advice    line 1 starts with '[': print() of a list",
            id="list",
            marks=_SLOW,
        ),
        pytest.param(
            "def solve(line):\n    total = sum(map(int, line.split()))\n\nprint(solve(input()))\n",
            "advice    line 1 of your output is None",
            id="None",
            marks=_SLOW,
        ),
    ],
)
def test_recognised_mistakes_get_their_advice(tmp_path: Path, source: str, advice: str) -> None:
    (tmp_path / "helpers.py").write_text(
        "def total(line):\n    return sum(map(int, line.split()))\n"
    )
    result = grade(script(tmp_path, source))
    assert result.exit_code == 1
    assert advice in result.stdout


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_a_timeout_says_how_far_it_got(tmp_path: Path) -> None:
    slow = script(
        tmp_path,
        "import time\nprint('partial answer', flush=True)\ntime.sleep(300)\n",
    )
    out = grade(slow, "--timeout", "1", "-j", "4").stdout
    assert "no answer within 1 s; stopped after printing 1 of the 1 expected line" in out
    assert "printed   partial answer" in out


@pytest.mark.parametrize(
    ("cpu_s", "remark"),
    [
        (0.01, "(it was waiting, not computing: 0.01 s of CPU;"),
        (3.9, "(computing all along: an endless loop, or too slow an approach)"),
        (None, None),  # killed at its limit with no cgroup to count it: nothing is claimed
    ],
)
def test_a_timeout_says_waiting_or_computing_only_when_it_knows(
    cpu_s: float | None, remark: str | None
) -> None:
    from grader.judging.judge import judge
    from grader.judging.records import Case
    from grader.sandbox import LimitHit, Limits, RunResult

    run = RunResult(
        exit_code=None,
        signal=9,
        wall_s=4.0,
        stdout=b"",
        stderr=b"",
        limit_hit=LimitHit.WALL_TIME,
        cpu_s=cpu_s,
    )
    case = Case(name="c", input=b"", expected="1\n", title="c")
    message = judge(case, run, lambda e, g: None, Limits(time_s=4)).message  # type: ignore[arg-type]
    if remark is None:
        assert "waiting" not in message and "computing" not in message
    else:
        assert remark in message


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_an_output_flood_names_its_stream_and_shows_its_head(tmp_path: Path) -> None:
    flood = script(tmp_path, "import sys\nwhile True:\n    sys.stderr.write('tick\\n')\n")
    out = grade(flood, "--timeout", "5").stdout
    assert "printed more than 1024 KB on stderr; stopped" in out
    assert "printed   tick" in out


@pytest.mark.parametrize(
    ("source", "verdict"),
    [
        (
            "n = [int(x) for x in input().split()]\nprint(sum(n) if min(n) >= 0 else 1 // 0)\n",
            "runtime_error",
        ),
        pytest.param(  # two time-outs: the default suite's time (45 s), CI's slow pass runs it
            "n = [int(x) for x in input().split()]\nwhile min(n) < 0: pass\nprint(sum(n))\n",
            "timeout",
            marks=pytest.mark.slow,
        ),
        (
            "n = [int(x) for x in input().split()]\nprint(sum(n) if min(n) >= 0 else 0)\n",
            "wrong_answer",
        ),
    ],
    ids=["crash", "time-out", "wrong answer"],
)
def test_the_hint_of_the_case_shows_for_a_crash_and_a_time_out(
    tmp_path: Path, source: str, verdict: str
) -> None:
    """A zero group crashes a division, a blank line a parse: the hint that names the bug must
    be there for them too, in every format (it was for wrong answers only)."""
    mine = script(tmp_path, source)
    plain = grade(mine, "-k", "02-negative", "--timeout", "0.5").stdout
    assert verdict in plain
    assert "this case checks: Negative numbers count too." in plain
    as_json = grade(mine, "-k", "02-negative", "--timeout", "0.5", "--format", "json").stdout
    (case,) = [c for c in json.loads(as_json)["cases"] if c["name"] == "02-negative"]
    assert case["status"] == verdict and case["hint"] == "Negative numbers count too."


def test_a_passing_case_has_no_hint_in_json(tmp_path: Path) -> None:
    solution = COURSE / "reference" / "add" / "solution.py"
    report = json.loads(grade(solution, "--format", "json").stdout)
    assert report["cases"] and not [c for c in report["cases"] if "hint" in c]


@pytest.mark.parametrize(
    ("exercise", "script", "case", "said"),
    [
        ("quantize", "quantize_half_up.py", "03", "int(x + 0.5) and int(x) are"),
        ("quantize", "zero_division", "04", "has scale 0; do not divide by it"),
        ("specdec", "blank_lines_crash", "05", "Skip lines that are empty"),
        ("specdec", "specdec_eof.py", "01", "input() was called after the last line"),
    ],
)
def test_the_hint_that_names_the_bug_is_in_every_format(
    exercise: str, script: str, case: str, said: str
) -> None:
    """The mistakes of issue 25, graded on the shipped exercise's public case that names them:
    plain, rich and JSON all say it (the browser: tests/test_site.py)."""
    from conftest import SCRIPTS, TESTS

    path = (
        SCRIPTS / script
        if script.endswith(".py")
        else (TESTS.parent / "reference" / exercise / "wrong" / f"{script}.py")
    )
    for fmt in ("plain", "rich", "json"):
        argv = [exercise, str(path), "-k", case, "--format", fmt]
        out = CliRunner().invoke(cli, argv, catch_exceptions=False).stdout
        assert said in (out if fmt != "json" else json.dumps(json.loads(out))), (fmt, out)


def test_a_crash_echoing_each_input_is_shown_once(tmp_path: Path) -> None:
    """Issue 37: the same ValueError at the same line, its message quoting each case's own
    input, was printed in full once per case, each with its case's unrelated hint."""
    echo = script(tmp_path, "x = float(input())\nprint(x)\n")
    out = grade(echo).stdout
    assert out.count("Traceback") == 1 and "the same mistake as 01-sample, above" in out
    assert "could not convert string to float: '1 2 3'" in out  # the first, in full
    assert "Negative numbers count too." not in out  # 02-negative's hint: not about a parse
