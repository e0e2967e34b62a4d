"""The shipped exercises: references pass, known-wrong solutions fail, outputs are up to date."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from grader.expected import stale_outputs
from grader.grading import exercise_cases, grade
from grader.report import Verdict
from grader.resources import Root
from grader.spec import Exercise, Visibility, exercise_names, load_exercise

EXPECT = re.compile(r"^expect: (\w+)$", re.MULTILINE)


def wrong_solutions(reference: Path, exercise: str) -> list[Path]:
    return sorted((reference / exercise / "wrong").glob("*.py"))


def test_both_exercises_ship(root: Root) -> None:
    assert {"quantize", "specdec"} <= set(exercise_names(root))


@pytest.mark.parametrize("name", ["quantize", "specdec"])
def test_reference_passes_every_public_case(root: Root, reference_dir: Path, name: str) -> None:
    exercise = load_exercise(name, root)
    assert exercise.reference is not None
    report = grade(exercise, exercise.reference)
    assert [(c.name, c.message) for c in report.cases if not c.passed] == []


@pytest.mark.parametrize("name", ["quantize", "specdec"])
def test_expected_outputs_are_what_the_reference_prints(
    root: Root, reference_dir: Path, name: str
) -> None:
    assert stale_outputs(load_exercise(name, root)) == ()


def _wrong_params() -> list[tuple[str, str]]:
    here = Path(__file__).resolve().parent.parent / "reference"
    return [(ex, p.name) for ex in ("quantize", "specdec") for p in wrong_solutions(here, ex)]


@pytest.mark.parametrize(("name", "solution"), _wrong_params())
def test_known_wrong_solution_fails_with_its_declared_verdict(
    root: Root, reference_dir: Path, name: str, solution: str
) -> None:
    path = reference_dir / name / "wrong" / solution
    declared = EXPECT.search(path.read_text(encoding="utf-8"))
    assert declared, f"{path} must declare 'expect: <verdict>' in its docstring"
    report = grade(load_exercise(name, root), path)
    verdicts = {c.verdict for c in report.cases}
    assert report.passed < report.total
    assert Verdict(declared.group(1)) in verdicts


def test_there_is_a_wrong_solution_per_classic_mistake(reference_dir: Path) -> None:
    assert len(wrong_solutions(reference_dir, "quantize")) >= 8
    assert len(wrong_solutions(reference_dir, "specdec")) >= 7


def _titles(exercise: Exercise) -> dict[str, str]:
    return {c.title: c.name for c in exercise_cases(exercise)}


def test_required_public_cases_exist(quantize: Exercise, specdec: Exercise) -> None:
    assert {"One group with an outlier", "Small groups"} <= set(_titles(quantize))
    assert {"A good draft model", "Every guess wrong"} <= set(_titles(specdec))
    for exercise in (quantize, specdec):
        cases = exercise_cases(exercise)
        assert all(c.visibility is Visibility.VISIBLE for c in cases)
        assert sum(c.sample for c in cases) == 2


def test_lesson_samples_are_the_lesson_examples(quantize: Exercise) -> None:
    first = exercise_cases(quantize)[0]
    assert first.input == b"0.12 -0.5 0.33 0.07 8.0\n5\n"
    assert first.expected == "group 1: scale 0.06299 q 2 -8 5 1 127\nmean error: 0.00639\n"


def test_large_cases_are_large(quantize: Exercise, specdec: Exercise) -> None:
    big = max(exercise_cases(quantize), key=lambda c: len(c.input))
    assert len(big.input.split(b"\n")[0].split()) >= 100_000
    long = max(exercise_cases(specdec), key=lambda c: len(c.input))
    assert sum(1 for line in long.input.split(b"\n") if line.strip()) >= 1_000


def test_short_last_group_tells_the_two_means_apart(quantize: Exercise) -> None:
    """The case's group errors must make the mean over weights differ from the mean of means."""
    case = next(c for c in exercise_cases(quantize) if c.name == "05-short-last-group")
    weights = [float(x) for x in case.input.split(b"\n")[0].split()]
    g = int(case.input.split(b"\n")[1])
    errors, means = [], []
    for start in range(0, len(weights), g):
        w = weights[start : start + g]
        scale = max(abs(x) for x in w) / 127
        e = [abs(x - round(x / scale) * scale) for x in w]
        errors += e
        means.append(sum(e) / len(e))
    assert f"{sum(errors) / len(errors):.5f}" != f"{sum(means) / len(means):.5f}"
    assert len(weights) % g != 0
