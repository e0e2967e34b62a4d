"""The judging package is what the practice page runs: it must import nothing outside itself,
or ``grade site`` would ship a judge that fails in the browser."""

from __future__ import annotations

import ast
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import comparing

from grader.judging.compare import Comparator
from grader.judging.errors import InternalError
from grader.judging.grouping import Grouping, Placement, same_mistake
from grader.judging.judge import (
    RIGHT_ANYWAY,
    grader_error,
    judge,
    not_compiled,
    skipped,
    syntax_error,
)
from grader.judging.records import (
    Case,
    CaseFeedback,
    CaseOutcome,
    Comparison,
    Mismatch,
    Verdict,
    Visibility,
)
from grader.judging.runs import LimitHit, Limits, RunResult

JUDGING = Path(__file__).resolve().parent.parent / "grader" / "judging"
_BROWSER_HAS = set(sys.stdlib_module_names)  # Pyodide ships CPython's standard library


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or ""))
        elif isinstance(node, ast.Import):
            found.extend((0, alias.name) for alias in node.names)
    return found


@pytest.mark.parametrize("module", sorted(JUDGING.glob("*.py")), ids=lambda p: p.name)
def test_judging_imports_only_itself_and_the_standard_library(module: Path) -> None:
    for level, name in _imports(module):
        if level == 0:
            assert name.split(".")[0] in _BROWSER_HAS, f"{module.name} imports {name}"
        else:
            assert level == 1, f"{module.name} reaches outside judging/ ({'.' * level}{name})"


def test_the_check_sees_an_import_from_outside(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from ..sandbox import Limits\nimport yaml\n")
    assert _imports(bad) == [(2, "sandbox"), (0, "yaml")]


def _crashed(stdout: bytes = b"3\n") -> RunResult:
    return RunResult(exit_code=1, signal=None, wall_s=0.1, stdout=stdout, stderr=b"Boom: x\n")


CASE = Case("01", b"1 2\n", "3\n", "one")


def _broken_checker(expected: str, got: str) -> Comparison:
    raise InternalError("the checker check.py failed (exit code 7)")


@pytest.mark.parametrize(
    ("comparator", "stdout", "right"),
    [
        (comparing("tokens"), b"3\n", True),  # it printed the answer, then crashed
        (comparing("tokens"), b"4\n", False),
        (_broken_checker, b"3\n", False),  # the checker's own failure says nothing of it
    ],
)
def test_a_crash_says_whether_its_output_was_right(
    comparator: Comparator, stdout: bytes, right: bool
) -> None:
    outcome = judge(CASE, _crashed(stdout), comparator, Limits())
    assert outcome.verdict is Verdict.RUNTIME_ERROR
    assert outcome.message.startswith("exited with code 1: Boom: x")
    assert outcome.message.endswith(RIGHT_ANYWAY) is right


TWO = Case("02", b"1\n", "a\nb\n", "two lines", hint="a hint")
ONE = Case("01", b"1\n", "a\n", "one line")


def _run(**fields: object) -> RunResult:
    base: dict[str, object] = {
        "exit_code": 0,
        "signal": None,
        "wall_s": 0.12345,
        "stdout": b"",
        "stderr": b"",
    }
    return RunResult(**{**base, **fields})  # type: ignore[arg-type]


TOKENS = comparing("tokens")
WRONG_B = "line 2, token 1: expected 'b', got 'c'"


@pytest.mark.parametrize(
    ("case", "run", "verdict", "message", "exit_code"),
    [
        (TWO, _run(stdout=b"a\nb\n"), Verdict.PASSED, "output matches", 0),
        (
            TWO,
            _run(stdout=b"a\nc\n"),
            Verdict.WRONG_ANSWER,
            "line 2, token 1: expected 'b', got 'c'",
            0,
        ),
        (
            TWO,
            _run(exit_code=None, signal=11, stdout=b"a\n", stderr=b"x\nSegfault!\n"),
            Verdict.RUNTIME_ERROR,
            "killed by SIGSEGV: Segfault!",
            None,
        ),
        (TWO, _run(exit_code=None, signal=99), Verdict.RUNTIME_ERROR, "killed by signal 99", None),
        (TWO, _run(exit_code=3), Verdict.RUNTIME_ERROR, "exited with code 3", 3),
        (
            TWO,
            _run(exit_code=1, stderr=b"Traceback...\nValueError: no\n"),
            Verdict.RUNTIME_ERROR,
            "exited with code 1: ValueError: no",
            1,
        ),
        (
            TWO,
            _run(exit_code=None, signal=9, stdout=b"a\n", limit_hit=LimitHit.WALL_TIME, cpu_s=0.0),
            Verdict.TIMEOUT,
            "no answer within 5 s; stopped after printing 1 of the 2 expected lines (it was "
            "waiting, not computing: 0.00 s of CPU; does it read more lines than the input has?)",
            None,
        ),
        (
            ONE,
            _run(exit_code=None, signal=9, limit_hit=LimitHit.WALL_TIME, cpu_s=None),
            Verdict.TIMEOUT,
            "no answer within 5 s; stopped after printing 0 of the 1 expected line",
            None,
        ),
        (
            ONE,
            _run(exit_code=None, signal=24, limit_hit=LimitHit.CPU_TIME, cpu_s=6.0),
            Verdict.TIMEOUT,
            "used more than 5 s of CPU time; stopped after printing 0 of the 1 expected line "
            "(computing all along: an endless loop, or too slow an approach)",
            None,
        ),
        (
            ONE,
            _run(exit_code=1, limit_hit=LimitHit.OUTPUT, over="stderr"),
            Verdict.OUTPUT_LIMIT,
            "printed more than 1024 KB on stderr; stopped",
            1,
        ),
        (
            ONE,
            _run(exit_code=None, signal=25, limit_hit=LimitHit.OUTPUT),
            Verdict.OUTPUT_LIMIT,
            "printed more than 1024 KB on stdout or stderr; stopped",
            None,
        ),
        (
            ONE,
            _run(exit_code=1, limit_hit=LimitHit.MEMORY, stderr=b"MemoryError\n"),
            Verdict.MEMORY_LIMIT,
            "ran out of memory (limit 512 MB): MemoryError",
            1,
        ),
    ],
)
def test_what_a_run_means(
    case: Case, run: RunResult, verdict: Verdict, message: str, exit_code: int | None
) -> None:
    outcome = judge(case, run, TOKENS, Limits())
    assert (outcome.verdict, outcome.message, outcome.exit_code) == (verdict, message, exit_code)
    assert outcome.time_s == 0.123  # to the millisecond
    assert outcome.stdout == run.stdout.decode() and outcome.stderr == run.stderr.decode()
    assert (outcome.comparison is not None) is (verdict in (Verdict.PASSED, Verdict.WRONG_ANSWER))


def test_a_time_out_on_a_busy_machine_says_both_clocks_to_the_millisecond() -> None:
    run = _run(
        exit_code=None,
        signal=9,
        wall_s=7.65432,
        queued_s=2.5,
        cpu_s=4.98765,
        limit_hit=LimitHit.WALL_TIME,
    )
    outcome = judge(ONE, run, TOKENS, Limits())
    assert outcome.verdict is Verdict.TIMEOUT
    assert outcome.message == (
        "no answer within 5 s of its own time (7.7 s on the clock, 2.5 s of them waiting for a "
        "CPU this busy machine gave others); stopped after printing 0 of the 1 expected line "
        "(computing all along: an endless loop, or too slow an approach)"
    )
    assert (outcome.time_s, outcome.cpu_s) == (7.654, 4.988)


@pytest.mark.parametrize(
    ("source", "said"),
    [
        (b"print(1)\n", ""),
        (b"print(1\n", "SyntaxError: '(' was never closed"),
        (b"def f(:\n  pass\n", "SyntaxError: invalid syntax"),
        (b"x = 1\n\x00\n", "source code string cannot contain null bytes"),
    ],
)
def test_syntax_errors_as_python_prints_them(source: bytes, said: str) -> None:
    error = syntax_error(source, "s.py")
    assert (said in error) if said else error == ""
    if said.startswith("SyntaxError"):
        assert error.startswith('  File "s.py", line ')


def test_a_source_too_deep_for_the_compiler_is_said_by_its_error_name() -> None:
    error = syntax_error(b"-" * 100_000 + b"1\n", "s.py")  # MemoryError on 3.11
    assert error.startswith(("MemoryError: ", "RecursionError: ")), error
    assert error.endswith("\n")


def test_a_case_that_did_not_compile() -> None:
    error = syntax_error(b"x = 1\nprint(1\n", "s.py")
    outcome = not_compiled(TWO, error)
    assert outcome.verdict is Verdict.RUNTIME_ERROR
    assert outcome.message == "does not compile: line 2: '(' was never closed"
    assert (outcome.time_s, outcome.exit_code, outcome.stderr) == (0.0, 1, error)
    assert outcome.compiled is False and outcome.feedback().hint is None
    assert not_compiled(TWO, "ValueError: bad\n").message == "does not compile: ValueError: bad"


def test_records_of_runs_that_never_were() -> None:
    for make, verdict in ((grader_error, Verdict.GRADER_ERROR), (skipped, Verdict.SKIPPED)):
        outcome = make(TWO, "why")
        assert (outcome.case, outcome.verdict, outcome.message) == (TWO, verdict, "why")
        assert (outcome.time_s, outcome.exit_code) == (0.0, None)


@pytest.mark.parametrize(
    ("visibility", "time_s", "text"),
    [
        (Visibility.VISIBLE, 0.123, "0.12 s"),
        (Visibility.HIDDEN, 0.0, "-"),  # a script can spell its input in its time
        (Visibility.AFTER_DUE_DATE, 0.0, "-"),
    ],
)
def test_a_hidden_cases_time_is_not_reported(
    visibility: Visibility, time_s: float, text: str
) -> None:
    case = replace(ONE, visibility=visibility)
    for verdict in (Verdict.PASSED, Verdict.WRONG_ANSWER):
        shown = CaseOutcome(case=case, verdict=verdict, message="m", time_s=0.123).feedback()
        assert (shown.time_s, shown.time_text) == (time_s, text)


def test_advice_on_a_module_name_too_long_for_the_filesystem(tmp_path: Path) -> None:
    """Red team: a crash naming a 300-character module made the advice's file check raise
    ENAMETOOLONG, every case a grader error and the check exit 4: the student's doing."""
    from grader.judging.diagnose import advise

    stderr = "ModuleNotFoundError: No module named '" + "a" * 300 + "'\n"
    crashed = CaseOutcome(
        case=ONE, verdict=Verdict.RUNTIME_ERROR, message="m", time_s=0.0, stderr=stderr
    )
    said = advise(crashed, tmp_path / "s.py")  # raised OSError (ENAMETOOLONG) before
    assert said is None or "beside it" not in said


def _failed(
    name: str, got: str, hint: str | None = None, *, want: str = "2", line: int = 1
) -> CaseFeedback:
    compared = Comparison(False, Mismatch.TOKEN, line, 1, want, got, want, got)
    case = Case(name, b"1\n", f"{want}\n", name, hint=hint)
    outcome = CaseOutcome(case, Verdict.WRONG_ANSWER, compared.message, 0.1, 0, got, "", compared)
    return outcome.feedback()


def _crash_of(name: str, stderr: str, hint: str | None = None) -> CaseFeedback:
    case = Case(name, b"1\n", "2\n", name, hint=hint)
    outcome = CaseOutcome(case, Verdict.RUNTIME_ERROR, "exit code 1", 0.1, 1, "", stderr)
    return outcome.feedback()


def _rejected(name: str, got: str, note: str) -> CaseFeedback:
    compared = Comparison(False, Mismatch.CHECKER, note=note)
    case = Case(name, b"1\n", "2\n", name)
    outcome = CaseOutcome(case, Verdict.WRONG_ANSWER, compared.message, 0.1, 0, got, "", compared)
    return outcome.feedback()


def _timed_out(name: str, hint: str | None = None) -> CaseFeedback:
    case = Case(name, b"1\n", "2\n", name, hint=hint)
    return CaseOutcome(case, Verdict.TIMEOUT, "no answer within 2 s", 2.0).feedback()


def _traceback(folder: str, line: int, error: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        f'  File "/tmp/{folder}/mine.py", line {line}, in <module>\n'
        "    w = float(x)\n"
        f"{error}\n"
    )


# grouping.py's rule, for every report and the page (issue 37): one row per pair of failures,
# whether the second is the first's mistake again
SAME_MISTAKE = [
    # the same place and kind of difference: one formatting bug, whatever the case's tokens
    (
        "a number written otherwise",
        _failed("a", "1.5", want="1.50"),
        _failed("b", "2", want="2.0"),
        True,
    ),
    ("another number each time", _failed("a", "7", want="6"), _failed("b", "-2", want="-3"), True),
    (
        "another number, another line",
        _failed("a", "7", want="6"),
        _failed("b", "7", want="6", line=2),
        False,
    ),
    (
        "written otherwise, then wrong",
        _failed("a", "1.5", want="1.50"),
        _failed("b", "3", want="2"),
        False,
    ),
    ("letter case", _failed("a", "Yes", want="yes"), _failed("b", "No", want="no"), True),
    (
        "a word, then a case",
        _failed("a", "cat", want="dog"),
        _failed("b", "Dog", want="dog"),
        False,
    ),
    # a crash: the exception and the line that raised it, whatever the input it echoes
    (
        "one crash echoing each input",
        _crash_of("a", _traceback("r1", 3, "ValueError: could not convert string to float: 'x'")),
        _crash_of("b", _traceback("r2", 3, "ValueError: could not convert string to float: 'y'")),
        True,
    ),
    (
        "the same exception elsewhere",
        _crash_of("a", _traceback("r1", 3, "ValueError: bad")),
        _crash_of("b", _traceback("r1", 9, "ValueError: bad")),
        False,
    ),
    (
        "another exception there",
        _crash_of("a", _traceback("r1", 3, "ValueError: bad")),
        _crash_of("b", _traceback("r1", 3, "ZeroDivisionError: division by zero")),
        False,
    ),
    ("two time-outs", _timed_out("a"), _timed_out("b"), True),
    # a checker's reason, the output lines it quotes blurred: one complaint, whatever the lines
    (
        "a checker's one reason",
        _rejected("a", "dog 1.25\nthe 2.5\n", "line 2: the 2.5 is higher than dog 1.25 on line 1"),
        _rejected("b", "x 4.125\nP 7.5\n", "line 2: P 7.5 is higher than x 4.125 on line 1"),
        True,
    ),
    (
        "a checker's other reason",
        _rejected("a", "dog 1.25\nthe 2.5\n", "line 2: the 2.5 is higher than dog 1.25 on line 1"),
        _rejected("b", "x 4.125\n", "1 line, expected 2"),
        False,
    ),
]


@pytest.mark.parametrize(
    ("first", "then", "same"), [r[1:] for r in SAME_MISTAKE], ids=[r[0] for r in SAME_MISTAKE]
)
def test_the_same_mistake_is_the_same_place_and_kind_of_difference(
    first: CaseFeedback, then: CaseFeedback, same: bool
) -> None:
    placed, grouping = Grouping().place_case(first)
    assert placed == Placement()
    again, _ = grouping.place_case(then)
    assert again.same_as == ("a" if same else None)
    assert (same_mistake((first, then)) != {}) is same


def test_a_repeat_says_a_hint_not_said_above_unless_it_crashed_or_timed_out() -> None:
    """A wrong answer's repeat still says its case's hint if no case above said it (it may be
    the one that names the bug); the same crash or time-out on every case is no case's point:
    its repeats say none (issue 37: every crashed case printed its unrelated hint)."""
    error = "ValueError: could not convert string to float: "
    cases = [
        _failed("01", "3", "one"),
        _failed("02", "4", "two"),  # the same kind of difference: a repeat, with its own hint
        _failed("03", "x", "one"),  # a word for a number: another mistake, shown in full
        _failed("04", "5", "one"),  # a repeat whose hint was said above
        _crash_of("05", _traceback("r5", 3, error + "'a'"), "five"),  # in full, its hint too
        _crash_of("06", _traceback("r6", 3, error + "'b'"), "six"),  # a repeat: no hint
        _timed_out("07", "seven"),
        _timed_out("08", "eight"),
    ]
    grouping, placed = Grouping(), []
    for c in cases:
        where, grouping = grouping.place_case(c)
        placed.append(where)
    assert placed == [
        Placement(),
        Placement(same_as="01"),
        Placement(),
        Placement(same_as="01", hint_said=True),
        Placement(),
        Placement(same_as="05", hint_said=True),
        Placement(),
        Placement(same_as="07", hint_said=True),
    ]
    assert same_mistake(tuple(cases))["01"] == ["01", "02", "04"]
    ungrouped, _ = Grouping().place_case(cases[0], grouped=False)
    _, again = Grouping().place_case(cases[0], grouped=False)
    assert ungrouped == Placement() and again.place_case(cases[1], grouped=False)[0] == Placement()
