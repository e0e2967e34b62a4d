"""Report rendering: golden files for the human formats, and student output shown as plain data."""

from __future__ import annotations

import io
import json

import pytest
from conftest import script
from rich.console import Console

from grader.compare import TokenComparator
from grader.grading import exercise_cases, grade
from grader.render import FORMATS, renderer
from grader.render.escape import safe
from grader.render.github import render_github_summary
from grader.render.text import render_text
from grader.report import CaseOutcome, Report, Verdict
from grader.spec import Exercise, Visibility


def _outcome(name: str, verdict: Verdict, message: str, **extra: object) -> CaseOutcome:
    fields: dict[str, object] = {
        "name": name,
        "title": name.replace("-", " "),
        "verdict": verdict,
        "message": message,
        "time_s": 0.05,
        "exit_code": 0,
        "max_points": 1.0,
    }
    fields.update(extra)
    return CaseOutcome(**fields)  # type: ignore[arg-type]


def sample_report() -> Report:
    """A fixed report with one outcome of each kind (no subprocess: times are stable)."""
    expected = "group 1: scale 0.00394 q 30 -127\ngroup 2: scale 0.00260 q 127 27\n"
    got = "group 1: scale 0.00400 q 30 -127\n"
    comparison = TokenComparator()(expected, got)
    wrong = "line 1, token 4: expected '0.00394', got '0.00400'"
    return Report(
        exercise="quantize",
        submission="my.py",
        started_at="2026-11-29T10:00:00",
        hostname="ci-runner",
        cases=(
            _outcome("01-sample-outlier", Verdict.PASSED, "output matches"),
            _outcome(
                "02-sample-small-groups",
                Verdict.WRONG_ANSWER,
                wrong,
                input="0.12 -0.5 0.33 0.07 8.0\n2\n",
                stdout=got,
                comparison=comparison,
                hint="Each group has its own scale.",
            ),
            _outcome(
                "03-crash",
                Verdict.RUNTIME_ERROR,
                "exited with code 1: ZeroDivisionError",
                exit_code=1,
                input="0 0\n1\n",
                stderr='Traceback (most recent call last):\n  File "my.py", line 3\n'
                "ZeroDivisionError: float division by zero\n",
            ),
            _outcome(
                "04-slow",
                Verdict.TIMEOUT,
                "no answer within 5 s; stopped",
                exit_code=None,
                time_s=5.0,
                input="\n".join(str(i) for i in range(20)),
            ),
            _outcome(
                "05-hidden",
                Verdict.WRONG_ANSWER,
                "line 1, token 2: expected 'SECRET'",
                visibility=Visibility.HIDDEN,
                input="SECRET INPUT",
                stdout="SECRET OUT",
            ),
            _outcome(
                "06-grader",
                Verdict.GRADER_ERROR,
                "cannot run /x/python",
                exit_code=None,
                max_points=2.0,
            ),
        ),
    )


GOLDEN_FILES = {
    "plain": "report_plain.txt",
    "json": "report.json",
    "junit": "report_junit.xml",
    "gradescope": "report_gradescope.json",
    "github": "report_github.txt",
}


@pytest.mark.parametrize("fmt", sorted(GOLDEN_FILES))
def test_report_golden(golden, fmt: str) -> None:  # type: ignore[no-untyped-def]
    golden(GOLDEN_FILES[fmt], renderer(fmt)(sample_report()))


def test_github_summary_golden(golden) -> None:  # type: ignore[no-untyped-def]
    golden("report_github_summary.md", render_github_summary(sample_report()))


def test_every_format_has_a_golden_file() -> None:
    assert set(GOLDEN_FILES) == set(FORMATS)


def test_rich_without_colour_prints_the_plain_text() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, color_system=None, highlight=False, soft_wrap=True)
    console.print(render_text(sample_report()), end="")
    assert buffer.getvalue() == renderer("plain")(sample_report())


def test_rich_with_colour_styles_verdicts() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, color_system="standard", force_terminal=True)
    console.print(render_text(sample_report()))
    assert "\x1b[31m" in buffer.getvalue()  # red for the failures


def test_hidden_case_reveals_nothing_in_any_format() -> None:
    report = sample_report()
    for fmt in FORMATS:
        assert "SECRET" not in renderer(fmt)(report), fmt
    assert "SECRET" not in render_github_summary(report)
    hidden = json.loads(renderer("json")(report))["cases"][4]
    assert hidden["status"] == "wrong_answer" and hidden["visibility"] == "hidden"


def _shown(report: Report) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=120, color_system="standard", force_terminal=True)
    console.print(render_text(report))
    return buffer.getvalue()


def test_student_stdout_escapes_and_markup_are_shown_literally(quantize: Exercise) -> None:
    report = grade(quantize, script("spoof_terminal.py"), cases=[exercise_cases(quantize)[0]])
    assert report.cases[0].verdict is Verdict.WRONG_ANSWER
    shown, plain = _shown(report), renderer("plain")(report)
    assert "\x1b[2K" not in shown and "\r" not in shown.replace("\r\n", "")
    assert "\\x1b[2K\\x0d\\x1b[32m" in plain  # visible as escapes, not executed
    assert "[bold green]PASSED[/]" in plain  # markup stays text


def test_student_stderr_escapes_are_shown_literally(quantize: Exercise) -> None:
    report = grade(quantize, script("spoof_stderr.py"), cases=[exercise_cases(quantize)[0]])
    assert report.cases[0].verdict is Verdict.RUNTIME_ERROR
    shown, plain = _shown(report), renderer("plain")(report)
    for raw in ("\x1b]0;", "\x07", "\x1b[2J", "\x1b]8;"):
        assert raw not in shown
    assert "\\x1b]0;pwned\\x07" in plain
    assert "[link=https://example.invalid]click[/link]" in plain


def test_safe_escapes_controls_and_bidi_but_keeps_unicode() -> None:
    assert safe("naïve ✓ 3.14") == "naïve ✓ 3.14"
    assert safe("a\x1b[31mb") == "a\\x1b[31mb"
    assert safe("x\u202ey") == "x\\u202ey"
    assert safe("\tq\r") == "\\tq\\x0d"


def test_long_lines_are_cut_around_the_mismatch() -> None:
    expected = " ".join(str(i) for i in range(400)) + "\n"
    got = expected.replace(" 350 ", " 351 ")
    comparison = TokenComparator()(expected, got)
    outcome = _outcome(
        "long",
        Verdict.WRONG_ANSWER,
        comparison.message,
        stdout=got,
        comparison=comparison,
        input="x",
    )
    text = renderer("plain")(Report("quantize", "my.py", (outcome,)))
    got_line = next(line for line in text.splitlines() if line.strip().startswith("got"))
    caret_line = text.splitlines()[text.splitlines().index(got_line) + 1]
    assert len(got_line) < 130
    assert got_line[caret_line.index("^") :].startswith("351")
