"""The shipped exercises: each verifies (references pass, known-wrong solutions fail as they
declare, outputs are the reference's), and their cases hold what the lesson needs.

Nothing here counts cases: a teacher adding one must leave these tests green.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.cases import exercise_cases
from grader.resources import Root
from grader.sandbox import Sandbox
from grader.spec import Exercise, exercise_names
from grader.verify import Status, Verification, verify

SHIPPED = ("quantize", "specdec", "decode-speed")


def wrong_solutions(reference: Path, exercise: str) -> list[Path]:
    return sorted((reference / exercise / "wrong").glob("*.py"))


def test_the_lesson_exercises_ship(root: Root) -> None:
    assert set(SHIPPED) <= set(exercise_names(root))


@pytest.fixture(scope="module")
def verified(root: Root, sandbox: Sandbox) -> dict[str, Verification]:
    """One verify run per shipped exercise, shared by the tests below (it grades every case of
    the reference twice and of every known-wrong solution once)."""
    if not root.material.is_dir():
        pytest.skip("reference/ is absent (an sdist): teacher material is not shipped")
    return {name: verify(name, root, sandbox=sandbox) for name in exercise_names(root)}


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_exercise_verifies(verified: dict[str, Verification], name: str) -> None:
    result = verified[name]
    assert result.ok, result.table()
    by_name = {c.name: c.status for c in result.checks}
    for must in ("reference", "determinism", "expected outputs", "wrong solutions", "inputs"):
        assert by_name[must] is Status.OK, result.table()


def test_there_is_a_wrong_solution_per_classic_mistake(reference_dir: Path) -> None:
    assert len(wrong_solutions(reference_dir, "quantize")) >= 8
    assert len(wrong_solutions(reference_dir, "specdec")) >= 7


def _titles(exercise: Exercise) -> dict[str, str]:
    return {c.title: c.name for c in exercise_cases(exercise)}


def test_required_public_cases_exist(quantize: Exercise, specdec: Exercise) -> None:
    assert {"One group with an outlier", "Small groups"} <= set(_titles(quantize))
    assert {"A good draft model", "Every guess wrong"} <= set(_titles(specdec))
    for exercise in (quantize, specdec):
        assert sum(c.sample for c in exercise_cases(exercise)) >= 2


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
