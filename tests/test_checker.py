"""Exercises judged by the teacher's checker program (several right answers), in the sandbox."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import DATA

from grader.cli import cli
from grader.judging.errors import ExerciseError
from grader.judging.runs import Limits
from grader.model.resources import Root, RootKind
from grader.model.spec import load_exercise

CHECKER_COURSE = DATA / "checker_course"
SMALLEST = "n = int(input())\nprint(next((d for d in range(2, n) if n % d == 0), 'prime'))\n"


def grade(script: Path, root: Path = CHECKER_COURSE) -> Result:
    args = ["divisor", str(script), "--root", str(root), "--format", "json"]
    return CliRunner().invoke(cli, args, catch_exceptions=False)


def statuses(result: Result) -> list[str]:
    return [c["status"] for c in json.loads(result.stdout)["cases"]]


def test_another_right_answer_passes(tmp_path: Path) -> None:
    """The reference prints the largest divisor; the smallest is right too."""
    script = tmp_path / "smallest.py"
    script.write_text(SMALLEST)
    result = grade(script)
    assert result.exit_code == 0, result.output
    assert statuses(result) == ["passed"] * 3


def test_a_wrong_answer_is_rejected_with_the_checkers_reason(tmp_path: Path) -> None:
    script = tmp_path / "one.py"
    script.write_text("input()\nprint(1)\n")
    result = grade(script)
    assert result.exit_code == 1
    first = json.loads(result.stdout)["cases"][0]
    assert first["status"] == "wrong_answer"
    assert first["message"] == (
        "the checker rejected the output: 1 is not a divisor of 12 between 1 and 12"
    )


def test_a_broken_checker_is_a_grader_error_not_the_students(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(CHECKER_COURSE, course)
    (course / "reference" / "divisor" / "check.py").write_text("raise SystemExit(7)\n")
    script = tmp_path / "smallest.py"
    script.write_text(SMALLEST)
    result = grade(script, course)
    assert result.exit_code == 4  # the grader's fault: exit 4, never "failed"
    assert set(statuses(result)) == {"grader_error"}
    assert "the checker reference/divisor/check.py failed (exit code 7" in result.stdout


def test_a_checker_that_raises_is_a_grader_error_not_a_rejection(tmp_path: Path) -> None:
    """An uncaught exception exits 1, as a rejection does: its traceback tells them apart."""
    course = tmp_path / "course"
    shutil.copytree(CHECKER_COURSE, course)
    (course / "reference" / "divisor" / "check.py").write_text("print('no'); 1 / 0\n")
    script = tmp_path / "smallest.py"
    script.write_text(SMALLEST)
    result = grade(script, course)
    assert result.exit_code == 4
    assert set(statuses(result)) == {"grader_error"}


def test_non_ascii_digits_are_not_a_divisor(tmp_path: Path) -> None:
    script = tmp_path / "arabic.py"
    script.write_text("input()\nprint('\u0663')\n")  # Arabic-Indic three
    assert statuses(grade(script))[0] == "wrong_answer"


def test_a_crash_stays_a_runtime_error_when_the_checker_cannot_judge(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(CHECKER_COURSE, course)
    (course / "reference" / "divisor" / "check.py").write_text("raise SystemExit(7)\n")
    script = tmp_path / "crash.py"
    script.write_text("print(6)\nraise SystemExit(3)\n")
    assert set(statuses(grade(script, course))) == {"runtime_error"}


def test_the_checker_sees_only_its_own_files(tmp_path: Path) -> None:
    """The checker runs in the sandbox: it reads the input and expected output it is given, and
    the student's output it judges cannot talk it into reading the secret cases."""
    course = tmp_path / "course"
    shutil.copytree(CHECKER_COURSE, course)
    secret = course / "cases" / "divisor" / "secret" / "03-ninety-one.out"
    (course / "reference" / "divisor" / "check.py").write_text(
        "import os, sys\n"
        "assert sorted(os.listdir('.')) == ['expected', 'input'], os.listdir('.')\n"
        "assert open('input').read() and sys.stdin.read() is not None\n"
        f"try:\n    open({str(secret)!r}).read()\nexcept OSError:\n    sys.exit(0)\n"
        "print('read a secret')\nsys.exit(1)\n"
    )
    script = tmp_path / "smallest.py"
    script.write_text(SMALLEST)
    result = grade(script, course)
    assert statuses(result) == ["passed"] * 3, result.stdout


def test_verify_runs_the_checker_on_the_reference() -> None:
    result = CliRunner().invoke(cli, ["verify", "--root", str(CHECKER_COURSE)])
    assert result.exit_code == 0, result.output
    assert "divisor: ok" in result.stdout


@pytest.mark.parametrize(
    ("program", "problem"),
    [
        ("reference/divisor/nope.py", "compare.options.program: no file reference/divisor/nope.py"),
        ("../outside.py", "compare.program: must be a path inside the course"),
        ("check.sh", "compare.program: must be a Python file"),
    ],
)
def test_a_checker_must_be_a_python_file_in_the_course(
    tmp_path: Path, program: str, problem: str
) -> None:
    course = tmp_path / "course"
    shutil.copytree(CHECKER_COURSE, course)
    spec = course / "exercises" / "divisor.yaml"
    spec.write_text(spec.read_text().replace("reference/divisor/check.py", program))
    with pytest.raises(ExerciseError, match=problem):
        load_exercise("divisor", Root(course, RootKind.EXPLICIT))


def test_a_checker_judges_an_input_larger_than_the_output_limit(tmp_path: Path) -> None:
    """The checker's input file is the grader's, written into its work dir before it starts:
    an input over the run's output limit (1 MiB here) is judged, not a grader error."""
    course = tmp_path / "course"
    shutil.copytree(CHECKER_COURSE, course)
    rng = random.Random(24)
    numbers = [rng.randrange(10**6, 10**7) for _ in range(300_000)]
    numbers[1_000] = numbers[-1] = 10**7  # two largest: the reference finds the first
    big = tmp_path / "big.in"
    big.write_text("".join(f"{n}\n" for n in numbers))
    assert big.stat().st_size > 2 << 20 > 1024 * Limits().output_kb
    where = ["--root", str(course)]
    added = CliRunner().invoke(cli, ["add-case", "argmax", "02-big", "--input", str(big), *where])
    assert added.exit_code == 0, added.output
    script = tmp_path / "last.py"
    script.write_text(
        "import sys\nn = [int(x) for x in sys.stdin.read().split()]\n"
        "print(len(n) - n[::-1].index(max(n)))\n"
    )
    args = ["argmax", str(script), *where, "--format", "json"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert statuses(result) == ["passed", "passed"], result.stdout
    assert result.exit_code == 0
