"""The CLI edge: exit codes, one-line errors, JSON on stdout, list/show/regen, help everywhere."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from conftest import script

from grader.cli import cli
from grader.report import Verdict
from grader.resources import Root

REFERENCE = Path(__file__).resolve().parent.parent / "reference"


def grade_cli(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def test_all_passed_exits_0(reference_dir: Path) -> None:
    result = grade_cli("specdec", str(reference_dir / "specdec" / "solution.py"))
    assert result.exit_code == 0, result.output
    assert "10/10 cases passed" in result.stdout


def test_check_is_the_default_command(reference_dir: Path) -> None:
    plain = grade_cli("specdec", str(reference_dir / "specdec" / "solution.py"), "--format", "json")
    explicit = grade_cli(
        "check", "specdec", str(reference_dir / "specdec" / "solution.py"), "--format", "json"
    )
    assert json.loads(plain.stdout)["passed"] == json.loads(explicit.stdout)["passed"] == 10


def test_a_failure_exits_1(reference_dir: Path) -> None:
    result = grade_cli("specdec", str(reference_dir / "specdec" / "wrong" / "no_bonus.py"))
    assert result.exit_code == 1
    assert "wrong_answer" in result.stdout
    assert "hint" in result.stdout


def test_json_shape_for_ci(reference_dir: Path) -> None:
    result = grade_cli(
        "quantize", str(script("crash_after_output.py")), "--format", "json", "--timeout", "2"
    )
    assert result.exit_code == 1
    report = json.loads(result.stdout)  # stdout holds nothing but the JSON object
    assert set(report) >= {"exercise", "submission", "passed", "total", "score", "cases"}
    assert report["exercise"] == "quantize"
    assert report["submission"].endswith("crash_after_output.py")
    assert isinstance(report["passed"], int) and isinstance(report["total"], int)
    assert report["total"] == 10
    assert isinstance(report["score"], float) and 0 <= report["score"] <= 1
    for case in report["cases"]:
        assert set(case) >= {"name", "status", "time_s", "exit_code", "message"}
        assert case["status"] in {v.value for v in Verdict}
        assert isinstance(case["time_s"], float)
        assert case["exit_code"] is None or isinstance(case["exit_code"], int)
        assert isinstance(case["message"], str)
    assert report["cases"][0]["status"] == "runtime_error"
    assert report["cases"][0]["exit_code"] == 1


def test_json_exit_code_is_null_when_killed() -> None:
    result = grade_cli(
        "quantize",
        str(script("sleep_ignoring_sigterm.py")),
        "--format",
        "json",
        "--timeout",
        "0.3",
        "--cases",
        str(_one_case_dir()),
    )
    case = json.loads(result.stdout)["cases"][0]
    assert case["status"] == "timeout"
    assert case["exit_code"] is None


def _one_case_dir() -> Path:
    return Path(__file__).resolve().parent / "data" / "one_quantize_case"


def test_score_uses_points(root_copy: Root) -> None:
    spec = root_copy.exercises / "specdec.yaml"
    spec.write_text(
        spec.read_text().replace(
            "    title: A good draft model\n", "    title: A good draft model\n    points: 91\n"
        )
    )
    result = grade_cli(
        "specdec",
        str(REFERENCE / "specdec" / "wrong" / "no_bonus.py"),
        "--format",
        "json",
        "--root",
        str(root_copy.path),
    )
    report = json.loads(result.stdout)
    # the no-bonus mistake fails the 91-point sample, and passes 2 of the other 9
    assert report["max_points"] == 100
    assert report["points"] == sum(c["points"] for c in report["cases"]) == 2
    assert report["score"] == pytest.approx(0.02)


def test_cases_dir_grades_other_cases(tmp_path: Path) -> None:
    (tmp_path / "a.in").write_text("draft: x | target: x y\n")
    (tmp_path / "a.out").write_text(
        "round 1: +2 tokens: x y\n2 tokens in 1 target passes (2.00 per pass)\n"
    )
    result = grade_cli(
        "specdec", str(script("specdec_student.py")), "--cases", str(tmp_path), "--format", "json"
    )
    report = json.loads(result.stdout)
    assert [c["name"] for c in report["cases"]] == ["a"]
    assert result.exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["quantise", "x.py"], "unknown exercise 'quantise'; did you mean 'quantize'?"),
        (["quantize", "does-not-exist.py"], "submission does-not-exist.py does not exist"),
        (["quantize", "."], "is a folder"),
    ],
)
def test_usage_errors_exit_2_with_one_line(args: list[str], message: str) -> None:
    result = grade_cli(*args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["quantize", "x.py", "--jobs", "0"],
        ["quantize", "x.py", "--timeout", "-1"],
        ["quantize", "x.py", "--format", "xml"],
        ["quantize"],
        ["quantize", "x.py", "--bogus"],
    ],
)
def test_bad_options_exit_2(args: list[str]) -> None:
    assert grade_cli(*args).exit_code == 2


def test_unreadable_submission_exits_2(tmp_path: Path) -> None:
    import os

    if os.geteuid() == 0:
        pytest.skip("root can read any file")
    locked = tmp_path / "locked.py"
    locked.write_text("print(1)")
    locked.chmod(0)
    assert grade_cli("quantize", str(locked)).exit_code == 2


def _break(root: Root, relative: str, text: str | None) -> None:
    path = root.path / relative
    if text is None:
        path.unlink()
    else:
        path.write_text(text)


@pytest.mark.parametrize(
    ("relative", "text", "message"),
    [
        ("exercises/quantize.yaml", "title: [unclosed\n", "quantize.yaml: invalid YAML"),
        (
            "exercises/quantize.yaml",
            "title: t\nstatement: s\ncolour: red\n",
            "quantize.yaml: colour: unknown key",
        ),
        ("exercises/quantize.yaml", "statement: s\n", "quantize.yaml: title: missing"),
        ("exercises/quantize.yaml", "title: t\ntitle: u\nstatement: s\n", "duplicate key 'title'"),
        (
            "exercises/quantize.yaml",
            "title: t\nstatement: s\nlimits: {time_s: -1}\n",
            "quantize.yaml: limits.time_s: must be > 0",
        ),
        (
            "exercises/quantize.yaml",
            "title: t\nstatement: s\ncompare: {method: fuzzy}\n",
            "quantize.yaml: compare.method: unknown comparator 'fuzzy'",
        ),
        (
            "exercises/quantize.yaml",
            "title: t\nstatement: s\ncases: {01-sample-outlier: {visibility: secret}}\n",
            "cases.01-sample-outlier.visibility: must be one of",
        ),
        (
            "exercises/quantize.yaml",
            "title: t\nstatement: s\ncases: {nope: {title: x}}\n",
            "quantize.yaml: cases.nope: no case nope.in",
        ),
        ("cases/quantize/03-half-ties.out", None, "03-half-ties.in: has no expected output"),
        ("cases/quantize/03-half-ties.in", None, "03-half-ties.out: has no input"),
    ],
)
def test_broken_exercise_exits_3_naming_the_file(
    root_copy: Root, relative: str, text: str | None, message: str
) -> None:
    _break(root_copy, relative, text)
    result = grade_cli(
        "quantize", str(script("quantize_student.py")), "--root", str(root_copy.path)
    )
    assert result.exit_code == 3, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_root_from_environment(root_copy: Root) -> None:
    shutil.copy(root_copy.exercises / "specdec.yaml", root_copy.exercises / "specdec2.yaml")
    shutil.copytree(root_copy.cases / "specdec", root_copy.cases / "specdec2")
    result = grade_cli("list", env={"GRADE_ROOT": str(root_copy.path)})
    assert "specdec2" in result.stdout


def test_missing_reference_is_a_grader_error_exit_4(root_copy: Root) -> None:
    shutil.rmtree(root_copy.reference)
    result = grade_cli("regen", "quantize", "--check", "--root", str(root_copy.path))
    assert result.exit_code == 4
    assert "has no reference solution" in result.stderr


def test_regen_check_reports_a_stale_output(root_copy: Root) -> None:
    stale = root_copy.cases / "specdec" / "03-all-accepted-bonus.out"
    stale.write_text("round 1: +3 tokens: KV cache pages\n")
    result = grade_cli("regen", "specdec", "--check", "--root", str(root_copy.path))
    assert result.exit_code == 1
    assert "+round 1: +4 tokens: KV cache pages are" in result.stdout
    assert grade_cli("regen", "specdec", "--root", str(root_copy.path)).exit_code == 0
    assert grade_cli("regen", "specdec", "--check", "--root", str(root_copy.path)).exit_code == 0


def test_list_shows_titles() -> None:
    result = grade_cli("list")
    assert result.exit_code == 0
    rows = [line.split(None, 1) for line in result.stdout.splitlines()]
    assert ["quantize", "Group-wise absmax int8 quantization"] in rows
    assert ["specdec", "Speculative decoding rounds"] in rows
    assert ["decode-speed", "Memory-bound decode speed"] in rows


def test_show_prints_statement_and_samples_only() -> None:
    result = grade_cli("show", "quantize")
    assert result.exit_code == 0
    assert "group i: scale S q Q1 Q2 ... Qk" in result.stdout
    assert "Sample: One group with an outlier" in result.stdout
    assert "Sample: Small groups" in result.stdout
    assert "Exact .5 ties" not in result.stdout  # not a sample


def _commands(group: click.Group) -> list[str]:
    return sorted(group.commands)


@pytest.mark.parametrize("command", [[], *[[c] for c in _commands(cli)]])
def test_every_command_has_help(command: list[str]) -> None:
    result = grade_cli(*command, "--help")
    assert result.exit_code == 0
    assert "Usage:" in result.stdout
    assert "Show this message and exit." in result.stdout


def test_strict_sandbox_failure_exits_4_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from grader.sandbox import Sandbox

    monkeypatch.setattr(Sandbox, "_probe", lambda self: {"seccomp": "OSError: nope"})
    result = grade_cli("quantize", str(script("quantize_student.py")), "--sandbox", "strict")
    assert result.exit_code == 4
    assert result.stderr.startswith("grade: error: --sandbox strict: this machine lacks")
    assert len(result.stderr.strip().splitlines()) == 1


def test_sandbox_off_warns_on_stderr_and_still_grades() -> None:
    result = grade_cli(
        "specdec", str(script("specdec_student.py")), "--sandbox", "off", "--format", "json"
    )
    assert result.exit_code == 0
    assert "warning: --sandbox off" in result.stderr
    assert json.loads(result.stdout)["passed"] == 10
