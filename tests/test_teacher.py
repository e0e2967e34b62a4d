"""Teacher tooling on temporary copies of the exercises: verify, add-case, regen, new."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from grader.cli import cli
from grader.resources import Root
from grader.spec import Visibility, exercise_names, load_exercise
from grader.verify import Status, Verification, verify

PROJECT = Path(__file__).resolve().parent.parent


def run(*args: str, input: bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def statuses(result: Verification) -> dict[str, Status]:
    return {c.name: c.status for c in result.checks}


def test_verify_is_green_on_every_shipped_exercise(root: Root, reference_dir: Path) -> None:
    result = run("verify")
    assert result.exit_code == 0, result.stdout
    for name in exercise_names(root):
        assert f"{name}: ok" in result.stdout
    assert "FAIL" not in result.stdout


def _verify(root: Root, name: str, sandbox) -> Verification:  # type: ignore[no-untyped-def]
    return verify(name, root, runner=sandbox.run)


def test_verify_catches_a_stale_output(root_copy: Root, sandbox) -> None:  # type: ignore[no-untyped-def]
    (root_copy.cases / "specdec" / "02-sample-every-guess-wrong.out").write_text("stale\n")
    result = _verify(root_copy, "specdec", sandbox)
    assert statuses(result)["expected outputs"] is Status.FAIL
    assert statuses(result)["reference"] is Status.FAIL
    assert not result.ok


def test_verify_catches_a_missing_output(root_copy: Root, sandbox) -> None:  # type: ignore[no-untyped-def]
    (root_copy.cases / "specdec" / "04-mismatch-then-matches.out").unlink()
    result = _verify(root_copy, "specdec", sandbox)
    assert statuses(result) == {"spec": Status.OK, "cases": Status.FAIL}
    assert "04-mismatch-then-matches.in: has no expected output" in result.checks[-1].detail


def test_verify_catches_an_invalid_input(root_copy: Root, sandbox) -> None:  # type: ignore[no-untyped-def]
    (root_copy.cases / "quantize" / "09-single-weight.in").write_text("-0.37\n0\n")
    result = _verify(root_copy, "quantize", sandbox)
    check = next(c for c in result.checks if c.name == "inputs")
    assert check.status is Status.FAIL
    assert "09-single-weight: line 2 must be a whole number >= 1" in check.detail


def test_verify_catches_a_non_deterministic_reference(root_copy: Root, sandbox) -> None:  # type: ignore[no-untyped-def]
    solution = root_copy.reference / "specdec" / "solution.py"
    # a set of object ids changes order between runs, whatever PYTHONHASHSEED says
    solution.write_text(solution.read_text() + "print(sorted({id(object()) % 7 for _ in '12'}))\n")
    result = _verify(root_copy, "specdec", sandbox)
    assert statuses(result)["determinism"] is Status.FAIL


def test_verify_catches_a_wrong_solution_that_passes(root_copy: Root, sandbox) -> None:  # type: ignore[no-untyped-def]
    wrong = root_copy.reference / "specdec" / "wrong" / "sneaky.py"
    shutil.copy(root_copy.reference / "specdec" / "solution.py", wrong)
    wrong.write_text('"""Known wrong: nothing.\n\nexpect: wrong_answer\n"""\n' + wrong.read_text())
    result = _verify(root_copy, "specdec", sandbox)
    check = next(c for c in result.checks if c.name == "wrong solutions")
    assert check.status is Status.FAIL
    assert "sneaky.py passes every case: the cases are too weak" in check.detail


def test_verify_catches_a_wrong_verdict_and_a_missing_declaration(root_copy: Root, sandbox) -> None:  # type: ignore[no-untyped-def]
    folder = root_copy.reference / "specdec" / "wrong"
    text = (folder / "no_bonus.py").read_text()
    (folder / "no_bonus.py").write_text(text.replace("expect: wrong_answer", "expect: timeout"))
    result = _verify(root_copy, "specdec", sandbox)
    detail = next(c for c in result.checks if c.name == "wrong solutions").detail
    assert "no_bonus.py expected timeout, got wrong_answer" in detail
    (folder / "no_bonus.py").write_text(text.replace("expect: wrong_answer", ""))
    result = _verify(root_copy, "specdec", sandbox)
    detail = next(c for c in result.checks if c.name == "wrong solutions").detail
    assert "must say 'expect: <verdict>'" in detail


def test_verify_cli_exits_1_when_a_check_fails(root_copy: Root) -> None:
    (root_copy.cases / "specdec" / "01-sample-good-draft.out").write_text("stale\n")
    result = run("verify", "specdec", "--root", str(root_copy.path))
    assert result.exit_code == 1
    assert "specdec: FAILED" in result.stdout
    assert "FAIL  expected outputs" in result.stdout


def test_add_case_writes_files_and_metadata_keeping_comments(root_copy: Root) -> None:
    spec = root_copy.exercises / "quantize.yaml"
    spec.write_text("# the teacher's comment\n" + spec.read_text())
    result = run(
        "add-case",
        "quantize",
        "11-two-groups",
        "--input",
        "-",
        "--title",
        "Two groups: a colon, and a 'quote'",
        "--hint",
        "Per group.",
        "--hidden",
        "--points",
        "2",
        "--root",
        str(root_copy.path),
        input=b"1.5 -3 0.25 4\n2\n",
    )
    assert result.exit_code == 0, result.output
    # the reference's output, printed for the teacher (verify below checks it is the reference's)
    assert result.stdout.startswith("group 1: scale 0.02362 q 64 -127\ngroup 2: scale 0.03150")
    folder = root_copy.cases / "quantize"
    assert (folder / "11-two-groups.in").read_bytes() == b"1.5 -3 0.25 4\n2\n"
    assert (folder / "11-two-groups.out").read_text() == result.stdout
    assert spec.read_text().startswith("# the teacher's comment\n")
    meta = load_exercise("quantize", root_copy).case_meta["11-two-groups"]
    assert meta.title == "Two groups: a colon, and a 'quote'"
    assert (meta.hint, meta.points, meta.visibility) == ("Per group.", 2.0, Visibility.HIDDEN)
    assert load_exercise("quantize", root_copy).case_meta["10-large"].title == "100,000 weights"
    assert run("verify", "quantize", "--root", str(root_copy.path)).exit_code == 0


def test_add_case_refusals(root_copy: Root) -> None:
    where = ("--root", str(root_copy.path))
    invalid = run("add-case", "quantize", "x", "--input", "-", *where, input=b"1  2\n0\n")
    assert invalid.exit_code == 2
    assert "the input is invalid for quantize: line 1 must be decimal numbers" in invalid.stderr
    exists = run("add-case", "quantize", "03-half-ties", "--input", "-", *where, input=b"1\n1\n")
    assert exists.exit_code == 2 and "pass --force to replace it" in exists.stderr
    forced = run(
        "add-case", "quantize", "03-half-ties", "--input", "-", "--force", *where, input=b"1\n1\n"
    )
    assert forced.exit_code == 0
    assert "03-half-ties" not in load_exercise("quantize", root_copy).case_meta  # replaced
    (root_copy.reference / "quantize" / "solution.py").write_text("raise SystemExit(3)\n")
    crash = run("add-case", "quantize", "y", "--input", "-", *where, input=b"1\n1\n")
    assert crash.exit_code == 4 and "reference" in crash.stderr
    assert not (root_copy.cases / "quantize" / "y.in").exists()
    both = run("add-case", "quantize", "z", *where)
    assert both.exit_code == 2 and "exactly one of --input" in both.stderr


def test_add_case_random_is_deterministic(root_copy: Root) -> None:
    where = ("--root", str(root_copy.path))
    assert run("add-case", "specdec", "r1", "--random", "7", "--size", "30", *where).exit_code == 0
    assert run("add-case", "specdec", "r2", "--random", "7", "--size", "30", *where).exit_code == 0
    folder = root_copy.cases / "specdec"
    assert (folder / "r1.in").read_bytes() == (folder / "r2.in").read_bytes()
    assert (folder / "r1.in").read_bytes().count(b"draft:") == 30


def test_regen_check_shows_a_diff_then_regen_fixes_it(root_copy: Root) -> None:
    out = root_copy.cases / "quantize" / "01-sample-outlier.out"
    out.write_text("group 1: scale 0.06299 q 2 -8 5 1 127\nmean error: 0.00700\n")
    where = ("--root", str(root_copy.path))
    check = run("regen", "quantize", "--check", *where)
    assert check.exit_code == 1
    assert "-mean error: 0.00700\n+mean error: 0.00639\n" in check.stdout
    assert run("regen", "quantize", *where).exit_code == 0
    assert out.read_text().endswith("mean error: 0.00639\n")


def test_new_scaffolds_an_exercise_that_verifies(root_copy: Root) -> None:
    where = ("--root", str(root_copy.path))
    result = run("new", "tokens-per-dollar", *where)
    assert result.exit_code == 0, result.output
    assert "grade verify tokens-per-dollar" in result.stdout
    assert (root_copy.cases / "tokens-per-dollar" / "01-sample.out").read_text() == "6\n"
    verified = run("verify", "tokens-per-dollar", *where)
    assert verified.exit_code == 0, verified.stdout
    again = run("new", "tokens-per-dollar", *where)
    assert again.exit_code == 2 and "exists already" in again.stderr
    assert run("new", "../escape", *where).exit_code == 2


def test_decode_speed_needed_no_grader_change(root: Root) -> None:
    for path in (PROJECT / "grader").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "decode-speed" not in text and "decode_speed" not in text, path
    if shutil.which("git") is None or not (PROJECT / ".git").exists():
        pytest.skip("no git history to inspect")
    added = subprocess.run(
        ["git", "log", "--diff-filter=A", "--format=%H", "--", "exercises/decode-speed.yaml"],
        cwd=PROJECT,
        capture_output=True,
        text=True,
    ).stdout.split()
    if not added:
        pytest.skip("decode-speed is not committed in this checkout's history")
    changed = subprocess.run(
        ["git", "show", "--name-only", "--format=", added[-1]],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert changed and not [p for p in changed if p.startswith("grader/")]
