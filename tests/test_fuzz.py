"""--fuzz: a disagreement found on generated inputs, shrunk to a valid, 1-minimal input, the same
for the same seed; and a clear refusal where the reference is not at hand."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner
from conftest import COURSE, PlanFactory

from grader.cli import cli
from grader.fuzz import fuzz, shrink
from grader.material import material, validate
from grader.spec import Exercise
from grader.submissions import check_submission

WRONG = COURSE / "reference" / "add" / "wrong" / "drops_last_number.py"


def test_shrinking_is_1_minimal_over_lines_and_tokens() -> None:
    def keeps(data: bytes) -> bool:
        lines = data.decode().split("\n")
        return any("a" in line.split() and "b" in line.split() for line in lines) and "c" in lines

    big = b"x y a z\nq\nw b a e\nr c\nc\nt\n"
    small = shrink(big, keeps)
    assert keeps(small)
    assert small == b"b a\nc\n"
    lines = small.decode().split("\n")[:-1]
    for i in range(len(lines)):  # removing any single line or token breaks it
        assert not keeps(("\n".join(lines[:i] + lines[i + 1 :]) + "\n").encode())
        words = lines[i].split()
        for j in range(len(words)):
            fewer = [*lines[:i], " ".join(words[:j] + words[j + 1 :]), *lines[i + 1 :]]
            assert not keeps(("\n".join(fewer) + "\n").encode())


def test_a_disagreement_is_shrunk_to_a_valid_minimal_input_the_same_each_time(
    add: Exercise, plan_of: PlanFactory
) -> None:
    plan = plan_of(add)
    teacher = material(add)
    first = fuzz(plan, teacher, check_submission(WRONG), count=30, seed=7)
    again = fuzz(plan, teacher, check_submission(WRONG), count=30, seed=7)
    assert first is not None and again is not None
    assert first.input == again.input  # deterministic for a seed
    assert validate(teacher, first.input) is None  # every candidate is checked first
    assert len(first.input.split()) == 1  # one number: dropping it leaves no valid input
    assert first.outcome.verdict.value == "wrong_answer"


def test_fuzz_cli_reports_and_saves_the_case(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    args = ["add", str(WRONG), "--root", str(course), "-q", "--fuzz", "30", "--save-case", "f1"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 1
    assert "disagrees; shrunk in" in result.stdout
    assert (course / "cases" / "add" / "public" / "f1.in").is_file()


def test_fuzz_without_the_reference_says_so(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    shutil.rmtree(course / "reference")
    args = ["add", str(WRONG), "--root", str(course), "-q", "--fuzz", "5"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert "--fuzz compares with the reference solution, which is not here" in result.stderr
