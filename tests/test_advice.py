"""The advice rules (``judging/diagnose.py``), one row each: what a run printed, and what a
teaching assistant would say of it. Pure: the outcome comes from ``judge`` on a made-up run, as
the CLI and the browser both get it. ``test_feedback.py`` sees a few of them end to end."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import comparing

from grader.judging.diagnose import advise, explain
from grader.judging.judge import judge
from grader.judging.records import Case, CaseOutcome
from grader.judging.runs import Limits, RunResult

QUANTIZE_IN = b"0.12 -0.5 0.33 0.07 8.0\n5\n"
QUANTIZE_OUT = "group 1: scale 0.06299 q 2 -8 5 1 127\nmean error: 0.00639\n"
ONE_LINE_IN = b"1 2 3\n"
TRAILING = "mean error: 0.00639"


def outcome_of(
    stdout: str,
    stderr: str = "",
    *,
    code: int = 0,
    given: bytes = QUANTIZE_IN,
    expected: str = QUANTIZE_OUT,
) -> CaseOutcome:
    case = Case("01", given, expected, "a case")
    run = RunResult(code, None, 0.1, stdout.encode(), stderr.encode(), cpu_s=0.05)
    return judge(case, run, comparing("tokens"), Limits())


def traceback(last: str) -> str:
    return f'Traceback (most recent call last):\n  File "my.py", line 3, in <module>\n{last}\n'


ROWS = [
    (
        "eof",
        outcome_of("", traceback("EOFError: EOF when reading a line"), code=1),
        "",
        "input() was called after the last line of the input (EOFError)",
    ),
    (
        "list",
        outcome_of("group 1: scale 0.06299 q 2 -8 5 1 127\n[0.00639]\n"),
        "",
        "line 2 starts with '[': print() of a list, tuple or numpy array",
    ),
    (
        "numpy array",
        outcome_of("[  2  -8   5   1 127]\n"),
        "",
        "line 1 starts with '['",
    ),
    (
        "tuple",
        outcome_of("(1, 0.06299)\n"),
        "",
        "line 1 starts with '('",
    ),
    (
        "None",
        outcome_of("group 1: scale 0.06299 q 2 -8 5 1 127\nNone\n"),
        "",
        "line 2 of your output is None: print(f(...)) of a function that returns nothing",
    ),
    (
        "blank line",
        outcome_of("group 1: scale 0.06299 q 2 -8 5 1 127\n\nmean error: 0.00639\n"),
        "",
        "line 2 of your output is empty, and the expected line comes after it",
    ),
    (
        "one input() for two lines",
        outcome_of("", traceback("ValueError: invalid literal for int(): '8.0'"), code=1),
        "w = input().split()\ng = int(w[-1])\nprint(w, g)\n",
        "input() reads one line, and this input has 2",
    ),
    (
        "one input() as a comprehension's iterable",
        outcome_of("", traceback("ValueError: could not convert string to float: ''"), code=1),
        "w = [float(x) for x in input().split()]\ng = int(w.pop())\n",
        "input() reads one line, and this input has 2",
    ),
    (
        "one input() as a generator's iterable, filtered",
        outcome_of("", traceback("ValueError: x"), code=1),
        "total = sum(float(x) for x in input().split() if x)\n",
        "input() reads one line, and this input has 2",
    ),
    (
        "one input() as a for loop's iterable",
        outcome_of("", traceback("ValueError: x"), code=1),
        "for x in input().split():\n    print(float(x))\n",
        "input() reads one line, and this input has 2",
    ),
]


@pytest.mark.parametrize(
    ("outcome", "source", "said"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS]
)
def test_each_rule_names_its_mistake(outcome: CaseOutcome, source: str, said: str) -> None:
    advice = advise(outcome, Path("my.py"), source)
    assert advice is not None and said in advice, advice


NOT_THESE = [
    ("right output", outcome_of(QUANTIZE_OUT), ""),
    ("brackets the statement asks for", outcome_of("[1]\n", expected="[2]\n"), ""),
    ("None the statement asks for", outcome_of("None\n", expected="None\nNone\n"), ""),
    ("another crash", outcome_of("", traceback("ZeroDivisionError: division by zero"), code=1), ""),
    (
        "input() in a loop",
        outcome_of("", traceback("ValueError: x"), code=1),
        "for _ in range(2):\n    line = input()\n",
    ),
    (
        "input() in a comprehension",
        outcome_of("", traceback("ValueError: x"), code=1),
        "lines = [input() for _ in range(2)]\n",
    ),
    (
        "input() in a comprehension's later for",
        outcome_of("", traceback("ValueError: x"), code=1),
        "w = [x for _ in range(2) for x in input().split()]\n",
    ),
    (
        "input() in a comprehension's condition",
        outcome_of("", traceback("ValueError: x"), code=1),
        "w = [x for x in range(2) if input()]\n",
    ),
    (
        "input() as an inner comprehension's iterable",
        outcome_of("", traceback("ValueError: x"), code=1),
        "rows = [[int(x) for x in input().split()] for _ in range(2)]\n",
    ),
    (
        "input() in a while loop's condition",
        outcome_of("", traceback("ValueError: x"), code=1),
        "while line := input():\n    print(line)\n",
    ),
    (
        "input() in a one-line for loop's body",
        outcome_of("", traceback("ValueError: x"), code=1),
        "for _ in range(2): print(input())\n",
    ),
    (
        "input() as a for loop's iterable, in a loop",
        outcome_of("", traceback("ValueError: x"), code=1),
        "while True:\n    for x in input().split():\n        print(x)\n",
    ),
    (
        "input() and sys.stdin",
        outcome_of("", traceback("ValueError: x"), code=1),
        "import sys\nw = input()\nrest = sys.stdin.read()\n",
    ),
    (
        "one input() for a one-line input",
        outcome_of("", traceback("ValueError: x"), code=1, given=ONE_LINE_IN),
        "w = input()\n",
    ),
    (
        "source that does not tokenize",
        outcome_of("", traceback("ValueError: x"), code=1),
        "x = (\n",
    ),
]


@pytest.mark.parametrize(
    ("outcome", "source"), [r[1:] for r in NOT_THESE], ids=[r[0] for r in NOT_THESE]
)
def test_no_rule_speaks_without_its_mistake(outcome: CaseOutcome, source: str) -> None:
    assert advise(outcome, Path("my.py"), source) is None


def test_a_named_mistake_leaves_no_guess_beside_it() -> None:
    """Newcomer: kv-pages' preempted-to-the-back program is named exactly, and beside it the
    report asked whether a line before the expected one was a prompt or a debug print: it was
    a real PREEMPT line. An output that is exactly a known-wrong program's has its cause; a
    rule's guess could only repeat it or send the student elsewhere."""
    extra = outcome_of("PREEMPT a\n" + QUANTIZE_OUT)
    assert explain(extra, Path("my.py"), "", lambda _stdout: False).advice is not None
    named = explain(extra, Path("my.py"), "", lambda _stdout: True)
    assert (named.diagnosis, named.advice) == (None, None)  # the report names it, or none
    passed = explain(outcome_of(QUANTIZE_OUT), Path("my.py"), "", lambda _stdout: True)
    assert (passed.diagnosis, passed.advice) == (None, None)
