"""Report rendering: golden files for the human formats, and student output shown as plain data."""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace

import pytest
from conftest import ONE_QUANTIZE_CASE, Golden, PlanFactory, script
from rich.console import Console

from grader.judging.compare import TokenComparator
from grader.judging.records import (
    Case,
    CaseOutcome,
    Diagnosis,
    FuzzOutcome,
    Report,
    Verdict,
    Visibility,
)
from grader.model.spec import Exercise
from grader.render import FORMATS, choose, render
from grader.render.escape import safe
from grader.render.github import render_github_summary
from grader.render.text import fuzz_details, render_text
from grader.running.grading import grade
from grader.running.plan import Plan


def _outcome(
    name: str,
    verdict: Verdict,
    message: str,
    *,
    input: str = "",
    hint: str | None = None,
    visibility: Visibility = Visibility.VISIBLE,
    max_points: float = 1.0,
    **run: object,
) -> CaseOutcome:
    case = Case(
        name=name,
        input=input.encode(),
        expected="",
        title=name.replace("-", " "),
        points=max_points,
        hint=hint,
        visibility=visibility,
    )
    fields: dict[str, object] = {"time_s": 0.05, "exit_code": 0, **run}
    return CaseOutcome(case=case, verdict=verdict, message=message, **fields)  # type: ignore[arg-type]


HIDDEN_PEAK = 444_444_444  # a hidden case's peak memory: no report may show it


def sample_report() -> Report:
    """A fixed report with one outcome of each kind (no subprocess: times are stable)."""
    expected = "group 1: scale 0.00394 q 30 -127\ngroup 2: scale 0.00260 q 127 27\n"
    got = "group 1: scale 0.00400 q 30 -127\n"
    comparison = TokenComparator()(expected, got)
    wrong = "line 1, token 4: expected '0.00394', got '0.00400'"
    # the known mistake the outputs are: said once per report, in every format (issue 37)
    known = Diagnosis(
        "rounded_scale", "rounds the scale before quantizing", ("02-sample-small-groups",)
    )
    return Report(
        diagnosis=known,
        exercise="quantize",
        submission="my.py",
        started_at="2026-11-29T10:00:00",
        hostname="ci-runner",
        outcomes=(
            _outcome(
                "01-sample-outlier",
                Verdict.PASSED,
                "output matches",
                peak_bytes=12 << 20,
                memory_mb=512,
            ),
            _outcome(
                "02-sample-small-groups",
                Verdict.WRONG_ANSWER,
                wrong,
                input="0.12 -0.5 0.33 0.07 8.0\n2\n",
                stdout=got,
                comparison=comparison,
                hint="Each group has its own scale.",
                diagnosis=known,
            ),
            _outcome(
                "03-crash",
                Verdict.RUNTIME_ERROR,
                "exited with code 1: ZeroDivisionError",
                exit_code=1,
                peak_bytes=400 << 20,
                memory_mb=512,
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
                peak_bytes=(300 << 20) + (1 << 19),
                memory_mb=512,
            ),
            _outcome(
                "05-hidden",
                Verdict.WRONG_ANSWER,
                "line 1, token 2: expected 'SECRET'",
                visibility=Visibility.HIDDEN,
                input="SECRET INPUT",
                stdout="SECRET OUT",
                stderr="SECRET ERR",
                hint="SECRET HINT",
                comparison=TokenComparator()("SECRET 1\n", "SECRET 2\n"),
                peak_bytes=HIDDEN_PEAK,
                memory_mb=512,
            ),
            _outcome(
                "07-after-due",
                Verdict.RUNTIME_ERROR,
                "exited with code 3: SECRET",
                visibility=Visibility.AFTER_DUE_DATE,
                input="SECRET INPUT",
                stderr="SECRET TRACEBACK",
                hint="SECRET HINT",
                exit_code=3,
            ),
            _outcome(
                "08-skipped",
                Verdict.SKIPPED,
                "not run: case 04-slow timed out",
                exit_code=None,
                time_s=0.0,
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
    "rich": "report_rich.txt",
    "plain": "report_plain.txt",
    "json": "report.json",
    "junit": "report_junit.xml",
    "gradescope": "report_gradescope.json",
    "github": "report_github.txt",
    "html": "report.html",
}


@pytest.mark.parametrize("fmt", sorted(GOLDEN_FILES))
def test_report_golden(golden: Golden, fmt: str) -> None:
    golden(GOLDEN_FILES[fmt], render(fmt, sample_report().feedback()))


def test_github_summary_golden(golden: Golden) -> None:
    golden("report_github_summary.md", render_github_summary(sample_report().feedback()))


def test_every_format_has_a_golden_file() -> None:
    assert set(GOLDEN_FILES) == set(FORMATS)


def test_rich_without_its_styles_is_the_plain_text() -> None:
    feedback = sample_report().feedback()
    rich = render("rich", feedback)
    assert "\x1b[31m" in rich  # red for the failures
    assert re.sub("\x1b\\[[0-9;]*m", "", rich) == render("plain", feedback)


@pytest.mark.parametrize(
    ("requested", "to_terminal", "no_color", "chosen"),
    [
        ("auto", True, False, "rich"),
        ("auto", False, False, "plain"),  # piped or --output: no escape codes in files
        ("auto", True, True, "plain"),  # NO_COLOR
        ("rich", False, False, "plain"),
        ("rich", True, True, "plain"),
        ("rich", True, False, "rich"),
        ("json", True, False, "json"),
        ("junit", False, True, "junit"),
    ],
)
def test_format_choice(requested: str, to_terminal: bool, no_color: bool, chosen: str) -> None:
    assert choose(requested, to_terminal=to_terminal, no_color=no_color) == chosen


def test_hidden_case_reveals_nothing_in_any_format() -> None:
    report = sample_report()
    hidden = report.outcomes[4]
    assert hidden.stdout == "SECRET OUT" and hidden.case.hint == "SECRET HINT"  # the raw report
    feedback = report.feedback()
    for fmt in FORMATS:
        text = render(fmt, feedback)
        assert "SECRET" not in text, fmt
        for name in ("05", "07"):  # the cases themselves are reported, hidden and after-due-date
            assert f"{name} " in text or f"{name}-" in text, fmt
    assert "SECRET" not in render_github_summary(feedback)
    cases = json.loads(render("json", feedback))["cases"]
    assert cases[4]["status"] == "wrong_answer" and cases[4]["visibility"] == "hidden"
    assert cases[4]["message"] == "hidden case" and cases[4]["exit_code"] is None
    assert cases[5]["visibility"] == "after_due_date" and cases[5]["exit_code"] is None
    # nor its peak memory, which a script can spell bits of its input in, as in its time
    assert cases[4]["peak_memory_mb"] is None and cases[4]["memory_share"] is None
    for fmt in FORMATS:
        for figure in ("423", "444", "87%"):  # its MB, its bytes, its share of 512 MB
            assert figure not in render(fmt, feedback), (fmt, figure)


def _shown(report: Report) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=120, color_system="standard", force_terminal=True)
    console.print(render_text(report.feedback()))
    return buffer.getvalue()


@pytest.fixture
def sample_plan(quantize: Exercise, plan_of: PlanFactory) -> Plan:
    return plan_of(quantize, cases_dir=ONE_QUANTIZE_CASE)


def test_student_stdout_escapes_and_markup_are_shown_literally(sample_plan: Plan) -> None:
    report = grade(sample_plan, script("spoof_terminal.py"))
    assert report.outcomes[0].verdict is Verdict.WRONG_ANSWER
    shown, plain = _shown(report), render("plain", report.feedback())
    assert "\x1b[2K" not in shown and "\r" not in shown.replace("\r\n", "")
    assert "\\x1b[2K\\x0d\\x1b[32m" in plain  # visible as escapes, not executed
    assert "[bold green]PASSED[/]" in plain  # markup stays text


def test_student_stderr_escapes_are_shown_literally(sample_plan: Plan) -> None:
    report = grade(sample_plan, script("spoof_stderr.py"))
    assert report.outcomes[0].verdict is Verdict.RUNTIME_ERROR
    shown, plain = _shown(report), render("plain", report.feedback())
    for raw in ("\x1b]0;", "\x07", "\x1b[2J", "\x1b]8;"):
        assert raw not in shown
    assert "\\x1b]0;pwned\\x07" in plain
    assert "[link=https://example.invalid]click[/link]" in plain


def test_safe_escapes_controls_and_bidi_but_keeps_unicode() -> None:
    assert safe("naïve ✓ 3.14") == "naïve ✓ 3.14"
    assert safe("a\x1b[31mb") == "a\\x1b[31mb"
    assert safe("x\u202ey") == "x\\u202ey"
    assert safe("\tq\r") == "\\tq\\x0d"
    # Newcomer: a no-break space read like a space in the "got" line; so would a zero-width one
    assert safe("q\xa02 a\u200bb") == "q\\xa02 a\\u200bb"


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
    text = render("plain", Report("quantize", "my.py", (outcome,)).feedback())
    got_line = next(line for line in text.splitlines() if line.strip().startswith("got"))
    caret_line = text.splitlines()[text.splitlines().index(got_line) + 1]
    assert len(got_line) < 130
    assert got_line[caret_line.index("^") :].startswith("351")


def test_a_line_of_spaces_is_not_an_empty_line() -> None:
    """specdec's blank-line case: "   " and "" looked the same under input."""
    outcome = _outcome(
        "blank", Verdict.RUNTIME_ERROR, "exited with code 1", input="a b\n   \n\t\n\nc\n"
    )
    text = render("plain", Report("quantize", "my.py", (outcome,)).feedback())
    rows = [line[15:] for line in text.splitlines() if line.startswith("     ")]
    start = rows.index("a b")
    assert rows[start : start + 5] == ["a b", "␠␠␠", "⇥", "", "c"]


def test_a_long_problem_hangs_under_its_first_line() -> None:
    """A time-out's message runs to ~200 characters: wrapped by us, under the value column,
    not by the terminal at its edge."""
    message = "no answer within 5 s; " + "stopped after printing 2 of the 4 expected lines " * 4
    outcome = _outcome("slow", Verdict.TIMEOUT, message.strip(), input="x")
    text = render("plain", Report("quantize", "my.py", (outcome,)).feedback())
    rows = [line for line in text.splitlines() if line.startswith("     ")]
    first = next(i for i, line in enumerate(rows) if line.lstrip().startswith("problem"))
    assert len(rows[first]) <= 100 and rows[first + 1].startswith(" " * 15)
    assert rows[first + 1][15] != " "
    joined = " ".join(r[15:] for r in rows[first : first + 3]).strip()
    assert joined.startswith(message.strip()[:150])


def fuzzed_report() -> Report:
    """A report whose cases all pass and whose fuzzing found a hostile disagreement."""
    passed = _outcome("01-sample", Verdict.PASSED, "output matches")
    case = Case(name="fuzz", input=b"951\n", expected="951\n", title="fuzz")
    found = CaseOutcome(
        case=case,
        verdict=Verdict.WRONG_ANSWER,
        message="line 1, token 1: expected '951', got '::error::pwned'",
        time_s=0.02,
        exit_code=0,
        stdout="::error::pwned \x1b[31mred\n",
        comparison=TokenComparator()("951\n", "::error::pwned \x1b[31mred\n"),
    )
    fuzz = FuzzOutcome(
        seed=1,
        count=10,
        tried=3,
        finding=found,
        shrink_runs=4,
        save_case="grade add my.py --fuzz 10 --seed 1 --save-case fuzz-1",
    )
    return Report("add", "my.py", (passed,), started_at="2026-11-29T10:00:00", fuzz=fuzz)


FUZZ_GOLDEN = {
    "plain": "report_fuzz_plain.txt",
    "json": "report_fuzz.json",
    "junit": "report_fuzz_junit.xml",
    "gradescope": "report_fuzz_gradescope.json",
    "github": "report_fuzz_github.txt",
    "html": "report_fuzz.html",
}


@pytest.mark.parametrize("fmt", sorted(FUZZ_GOLDEN))
def test_fuzz_finding_golden(golden: Golden, fmt: str) -> None:
    golden(FUZZ_GOLDEN[fmt], render(fmt, fuzzed_report().feedback()))


def test_a_fuzz_finding_fails_the_report_but_not_its_score() -> None:
    feedback = fuzzed_report().feedback()
    assert (feedback.passed, feedback.total, feedback.score) == (1, 1, 1.0)
    assert feedback.exit_code == 1
    for fmt in FORMATS:  # each says it, the hostile output as data
        text = render(fmt, feedback)
        assert "::error::pwned \\x1b[31mred" in text or fmt in ("json", "gradescope"), fmt
        assert not [line for line in text.splitlines() if line.startswith("::error::pwned")]


@pytest.mark.parametrize(
    ("data", "shown"),
    [
        (b"951\n", ["951\\n"]),
        (b"a b\n\n", ["a b\\n", "\\n"]),  # a blank line at the end
        (b"a\n\n\n", ["a\\n", "\\n", "\\n"]),
        (b"a\nb", ["a\\n", "b", "(no newline at the end)"]),
        (b"a\r\n\tb\n", ["a\\x0d\\n", "\\tb\\n"]),  # only \n ends a line
        (b"\n", ["\\n"]),
    ],
)
def test_a_fuzz_finding_shows_its_input_exactly(data: bytes, shown: list[str]) -> None:
    report = fuzzed_report()
    assert report.fuzz is not None and report.fuzz.finding is not None
    case = replace(report.fuzz.finding.case, input=data)
    fuzz = replace(report.fuzz, finding=replace(report.fuzz.finding, case=case))
    details = fuzz_details(fuzz.feedback()).splitlines()
    start = next(i for i, line in enumerate(details) if line.startswith("input"))
    rows = [line[10:] for line in details[start : start + len(shown)]]
    assert rows == shown
    assert details[start + len(shown)].startswith("expected")


def _judged_sample() -> Report:
    """The sample without its grader-error case: 1 of 7 points, every case judged."""
    report = sample_report()
    kept = tuple(o for o in report.outcomes if o.verdict is not Verdict.GRADER_ERROR)
    return replace(report, outcomes=kept)


# where each format states the score: the judged sample's 1/7 and the words for none
SCORE_SHOWN = {
    "rich": ("score 0.14 (1/7 points)", "not graded"),
    "plain": ("score 0.14 (1/7 points)", "not graded"),
    "github": ("cases passed, score 0.14", "not graded"),
    "html": ("score 0.14 (1/7 points)", "not graded"),
    "junit": ('name="score" value="0.142857"', 'name="score" value="not graded"'),
    "json": ('"score": 0.142857', '"score": null'),
    "gradescope": ('"score": 1.0,\n  "execution_time"', '"output": "not graded: grader error'),
}


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_grader_error_is_no_score_in_any_format(fmt: str) -> None:
    """A run the grader never judged is not a number anywhere a teacher or LMS could read one
    as the student's mark; the same report judged in full shows its score."""
    judged, shown_none = SCORE_SHOWN[fmt]
    assert judged in render(fmt, _judged_sample().feedback())
    text = render(fmt, sample_report().feedback())
    assert shown_none in text and judged.split(" (")[0] not in text
    assert "0.11" not in text and "0.111" not in text  # 1 of 9 points, the unjudged figure


def test_gradescope_gets_no_score_at_all_for_a_grader_error() -> None:
    """Gradescope adds up the tests' scores where results.json has none: no test may have one
    either, or the sum would be the zero the student is never charged."""
    data = json.loads(render("gradescope", sample_report().feedback()))
    assert "score" not in data
    assert [t for t in data["tests"] if "score" in t] == []
    judged = json.loads(render("gradescope", _judged_sample().feedback()))
    assert judged["score"] == 1.0 and all("score" in t for t in judged["tests"])


def test_the_json_report_says_why_it_has_no_score() -> None:
    data = json.loads(render("json", sample_report().feedback()))
    assert data["score"] is None
    assert data["error"] == (
        "not graded: grader error on 1 of 8 cases (06-grader): cannot run /x/python"
    )
    assert json.loads(render("json", _judged_sample().feedback()))["error"] is None


@pytest.mark.parametrize(
    ("lines", "shown", "marker"),
    [
        (6, 6, None),  # all fit
        (7, 7, None),  # newcomer: "… (1 line more)" took the room of the line itself
        (8, 6, "… (2 lines more)"),
    ],
)
def test_a_failing_case_shows_its_input_whole_unless_two_lines_would_go(
    lines: int, shown: int, marker: str | None
) -> None:
    given = "".join(f"line{n}\n" for n in range(1, lines + 1))
    failed = _outcome("01-long", Verdict.WRONG_ANSWER, "line 1: expected 'a'", input=given)
    report = Report(
        exercise="quantize",
        submission="my.py",
        started_at="2026-11-29T10:00:00",
        hostname="ci",
        outcomes=(failed,),
    )
    for text in (render("plain", report.feedback()), render("html", report.feedback())):
        assert [n for n in range(1, lines + 1) if f"line{n}" in text] == [*range(1, shown + 1)]
        assert ("more)" in text) == (marker is not None)
        assert marker is None or marker in text
