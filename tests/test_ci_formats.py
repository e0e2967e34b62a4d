"""CI formats against their real consumers: the JUnit XSD and parser, GitHub's command syntax."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import junitparser
import pytest
import xmlschema
from click.testing import CliRunner
from conftest import DATA, ONE_QUANTIZE_CASE, TESTS, PlanFactory, script
from test_render import _judged_sample, _outcome, sample_report

from grader.cli import cli
from grader.judging.records import Report, Verdict
from grader.model.spec import Exercise
from grader.render import render
from grader.render.github import escape_data, escape_property, render_github_summary
from grader.running.grading import grade

OWN_XSD = DATA / "grade-junit.xsd"  # what grade promises, kept in the repository
ANT_XSD = TESTS.parent.parent / "shared" / "schemas" / "JUnit.xsd"  # beside the checkout in CI


def _schemas() -> list[xmlschema.XMLSchema]:
    found = [xmlschema.XMLSchema(str(OWN_XSD))]
    if ANT_XSD.is_file():
        found.append(xmlschema.XMLSchema(str(ANT_XSD)))
    return found


@pytest.fixture(scope="module")
def schemas() -> list[xmlschema.XMLSchema]:
    return _schemas()


def test_junit_validates_against_the_xsd(schemas: list[xmlschema.XMLSchema]) -> None:
    for schema in schemas:
        schema.validate(render("junit", sample_report().feedback()))


def test_the_own_schema_rejects_what_grade_must_not_emit(
    schemas: list[xmlschema.XMLSchema],
) -> None:
    """The schema in tests/data is a real check, not a formality."""
    good = render("junit", sample_report().feedback())
    bad = good.replace('type="wrong_answer"', 'type="bogus"', 1)
    assert not schemas[0].is_valid(bad)
    assert not schemas[0].is_valid(good.replace('tests="8"', 'tests="-1"'))


def test_junit_of_a_real_hostile_run_validates(
    schemas: list[xmlschema.XMLSchema], quantize: Exercise, plan_of: PlanFactory
) -> None:
    plan = plan_of(quantize, cases_dir=ONE_QUANTIZE_CASE)
    for name in ("spoof_terminal.py", "invalid_utf8.py", "spoof_stderr.py"):
        report = grade(plan, script(name))
        for schema in schemas:
            schema.validate(render("junit", report.feedback()))


def test_junit_round_trips_through_junitparser(tmp_path: Path) -> None:
    path = tmp_path / "report.xml"
    path.write_text(render("junit", sample_report().feedback()), encoding="utf-8")
    xml = junitparser.JUnitXml.fromfile(str(path))
    suites = list(xml) if isinstance(xml, junitparser.JUnitXml) else [xml]
    (suite,) = suites
    assert suite.name == "quantize"
    assert (suite.tests, suite.failures, suite.errors, suite.skipped) == (8, 3, 3, 1)
    results = {case.name: [type(r).__name__ for r in case.result] for case in suite}
    assert results["01 sample outlier"] == []
    assert results["02 sample small groups"] == ["Failure"]
    assert results["03 crash"] == ["Error"]
    assert results["06 grader"] == ["Error"]
    assert all(case.classname == "quantize" for case in suite)


def test_gradescope_shape() -> None:
    # judged in full: a report with a grader error has no score (test_render.py)
    result = json.loads(render("gradescope", _judged_sample().feedback()))
    assert result["score"] == 1.0 and isinstance(result["execution_time"], float)
    assert {t["status"] for t in result["tests"]} == {"passed", "failed"}
    for test in result["tests"]:
        assert set(test) >= {"score", "max_score", "status", "name", "output", "visibility"}
    assert result["tests"][4]["visibility"] == "hidden"


@pytest.mark.parametrize(
    ("text", "escaped"),
    [("a%b", "a%25b"), ("line\nnext", "line%0Anext"), ("cr\r", "cr%0D"), ("%0A", "%250A")],
)
def test_github_data_escaping(text: str, escaped: str) -> None:
    assert escape_data(text) == escaped


def test_github_property_escaping() -> None:
    assert escape_property("a: b, c\n") == "a%3A b%2C c%0A"


def test_student_output_cannot_inject_workflow_commands(tmp_path: Path) -> None:
    hostile = tmp_path / "hostile.py"
    hostile.write_text(
        'print("::error::pwned\\n::add-mask::x %0A::warning::y")\nprint("::stop-commands::abc")\n'
    )
    result = CliRunner().invoke(
        cli,
        [
            "quantize",
            str(hostile),
            "--format",
            "github",
            "--cases",
            str(ONE_QUANTIZE_CASE),
        ],
    )
    assert result.exit_code == 1
    commands = [line for line in result.stdout.splitlines() if line.startswith("::")]
    # one annotation, ours, for the one failing case; the student's text stays inside it
    assert len(commands) == 1
    where = str(hostile).replace(":", "%3A").replace(",", "%2C")
    assert commands[0].startswith(
        f"::error file={where},title=quantize%3A One group with an outlier (wrong_answer)::"
    )
    assert "got '::error::pwned'" in commands[0]


def test_annotations_are_capped_at_ten() -> None:
    failing = tuple(
        _outcome(f"{n:02}", Verdict.WRONG_ANSWER, "line 1: extra line 'x'") for n in range(20)
    )
    text = render("github", Report("add", "my.py", failing).feedback())
    assert sum(line.startswith("::error") for line in text.splitlines()) == 10
    assert "10 more failing cases are in the job summary" in text


def test_step_summary_is_appended_when_set(add: Exercise, tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    result = CliRunner().invoke(
        cli,
        ["add", str(add.root.material / "add" / "solution.py"), "--format", "github"],
        env={"GITHUB_STEP_SUMMARY": str(summary), "GRADE_ROOT": str(add.root.path)},
    )
    assert result.exit_code == 0
    text = summary.read_text()
    assert text.startswith("earlier step\n### add: 4/4 cases passed")
    assert text.count("| ✅ |") == 4


def test_the_step_summary_is_the_github_formats_only(add: Exercise, tmp_path: Path) -> None:
    """A job that sets GITHUB_STEP_SUMMARY (every GitHub job does) and asks for JSON gets the
    JSON on stdout, byte for byte, and no summary of ours."""
    summary = tmp_path / "summary.md"
    solution = add.root.material / "add" / "solution.py"
    env = {"GITHUB_STEP_SUMMARY": str(summary), "GRADE_ROOT": str(add.root.path)}
    result = CliRunner().invoke(cli, ["add", str(solution), "--format", "json"], env=env)
    assert result.exit_code == 0
    assert not summary.exists()
    report = json.loads(result.stdout)
    assert result.stdout == json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def test_the_step_summary_is_utf_8_whatever_the_locale(add: Exercise, tmp_path: Path) -> None:
    """GitHub reads the summary as UTF-8: a runner whose locale is not (C, with coercion off)
    still gets its check marks, not a grader error."""
    summary = tmp_path / "summary.md"
    solution = add.root.material / "add" / "solution.py"
    env = {
        **os.environ,
        "LC_ALL": "C",
        "PYTHONCOERCECLOCALE": "0",
        "PYTHONUTF8": "0",
        "GITHUB_STEP_SUMMARY": str(summary),
    }
    grade = [sys.executable, "-m", "grader", "add", str(solution), "--format", "github"]
    done = subprocess.run(
        [*grade, "--root", str(add.root.path)],
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert summary.read_text(encoding="utf-8").count("| ✅ |") == 4


def test_summary_escapes_markdown_and_html() -> None:
    """Newcomer: an image a student's output names (![x](https://...)) was shown as one in the
    job summary; every markup character is escaped now, HTML's included."""
    hostile = _outcome(
        "pipe|<b>bold</b> *x*",
        Verdict.WRONG_ANSWER,
        "line 1, token 1: expected '<script>', got '![x](https://e.example/p.png)' [a](b) a|b",
    )
    text = render_github_summary(Report("add", "my.py", (hostile,)).feedback())
    row = text.splitlines()[-2]
    cells = re.split(r"(?<!\\) \| ", row.strip("| "))
    for cell in (cells[1], cells[5]):  # the title and the problem: nothing left to interpret
        assert re.search(r"(?<!\\)[<>*\[\]()!|&]", cell) is None, cell
    assert "https://" not in text and "\\<script\\>" in text
    assert row.count(" | ") == 5 and "a\\|b" in row and "pipe\\|" in row  # six cells, no more


def test_output_option_writes_the_file(add: Exercise, tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    out.write_text("an older report\n")
    result = CliRunner().invoke(
        cli,
        [
            "add",
            str(add.root.material / "add" / "solution.py"),
            "--format",
            "gradescope",
            "--output",
            str(out),
            "--root",
            str(add.root.path),
        ],
    )
    assert result.exit_code == 0
    assert result.stdout == ""
    assert json.loads(out.read_text())["score"] == 5  # 1 + 1 + 1 + 2 points
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]  # no temporary file left
