"""CI formats against their real consumers: the JUnit XSD and parser, GitHub's command syntax."""

from __future__ import annotations

import json
from pathlib import Path

import junitparser
import pytest
import xmlschema
from click.testing import CliRunner
from conftest import TESTS, script
from test_render import sample_report

from grader.cli import cli
from grader.grading import exercise_cases, grade
from grader.render import renderer
from grader.render.github import escape_data, escape_property, render_github_summary
from grader.spec import Exercise

XSD = TESTS.parent.parent / "shared" / "schemas" / "JUnit.xsd"


@pytest.fixture(scope="module")
def schema() -> xmlschema.XMLSchema:
    if not XSD.is_file():
        pytest.skip(f"no JUnit schema at {XSD}")
    return xmlschema.XMLSchema(str(XSD))


def test_junit_validates_against_the_xsd(schema: xmlschema.XMLSchema) -> None:
    schema.validate(renderer("junit")(sample_report()))


def test_junit_of_a_real_hostile_run_validates(
    schema: xmlschema.XMLSchema, quantize: Exercise
) -> None:
    cases = exercise_cases(quantize)[:2]
    for name in ("spoof_terminal.py", "invalid_utf8.py", "spoof_stderr.py"):
        report = grade(quantize, script(name), cases=cases)
        schema.validate(renderer("junit")(report))


def test_junit_round_trips_through_junitparser(tmp_path: Path) -> None:
    path = tmp_path / "report.xml"
    path.write_text(renderer("junit")(sample_report()), encoding="utf-8")
    xml = junitparser.JUnitXml.fromfile(str(path))
    suites = list(xml) if isinstance(xml, junitparser.JUnitXml) else [xml]
    (suite,) = suites
    assert suite.name == "quantize"
    assert (suite.tests, suite.failures, suite.errors) == (6, 3, 2)
    results = {case.name: [type(r).__name__ for r in case.result] for case in suite}
    assert results["01 sample outlier"] == []
    assert results["02 sample small groups"] == ["Failure"]
    assert results["03 crash"] == ["Error"]
    assert results["06 grader"] == ["Error"]
    assert all(case.classname == "quantize" for case in suite)


def test_gradescope_shape() -> None:
    result = json.loads(renderer("gradescope")(sample_report()))
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
            str(TESTS / "data" / "one_quantize_case"),
        ],
    )
    assert result.exit_code == 1
    commands = [line for line in result.stdout.splitlines() if line.startswith("::")]
    # one annotation, ours, for the one failing case; the student's text stays inside it
    assert len(commands) == 1
    assert commands[0].startswith("::error title=quantize%3A 01-sample-outlier (wrong_answer)::")
    assert "got '::error::pwned'" in commands[0]


def test_annotations_are_capped_at_ten(quantize: Exercise, tmp_path: Path) -> None:
    report = grade(quantize, script("killed_by_signal.py"))
    failing = [c for c in report.cases if not c.passed]
    assert len(failing) == 10
    many = report.__class__(report.exercise, report.submission, report.cases * 2)
    text = renderer("github")(many)
    assert sum(line.startswith("::error") for line in text.splitlines()) == 10
    assert "10 more failing cases are in the job summary" in text


def test_step_summary_is_appended_when_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    result = CliRunner().invoke(
        cli,
        ["specdec", str(script("specdec_student.py")), "--format", "github"],
        env={"GITHUB_STEP_SUMMARY": str(summary)},
    )
    assert result.exit_code == 0
    text = summary.read_text()
    assert text.startswith("earlier step\n### specdec: 10/10 cases passed")
    assert text.count("| ✅ |") == 10


def test_summary_escapes_markdown_and_html() -> None:
    text = render_github_summary(sample_report())
    assert "<" not in text.replace("&lt;", "")


def test_output_option_writes_the_file(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    result = CliRunner().invoke(
        cli,
        [
            "specdec",
            str(script("specdec_student.py")),
            "--format",
            "gradescope",
            "--output",
            str(out),
        ],
    )
    assert result.exit_code == 0
    assert result.stdout == ""
    assert json.loads(out.read_text())["score"] == 10
