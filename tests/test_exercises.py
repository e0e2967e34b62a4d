"""The shipped exercises: each verifies (references pass, known-wrong solutions fail as they
declare, outputs are the reference's), and their cases hold what the lesson needs.

Nothing here counts cases: a teacher adding one must leave these tests green.
"""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from collections.abc import Callable
from decimal import Context, Decimal, localcontext
from pathlib import Path
from typing import Any

import pytest

from grader.model.cases import exercise_cases
from grader.model.resources import Root
from grader.model.spec import Exercise, exercise_names, load_exercise
from grader.sandbox import Sandbox
from grader.teacher.verify import Status, Verification, verify

SHIPPED = (
    "quantize",
    "specdec",
    "decode-speed",
    "top-k",
    "ttft",
    "prefix-cache",
    "kv-pages",
    "batching",
)


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


@pytest.mark.slow
@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_exercise_verifies(verified: dict[str, Verification], name: str) -> None:
    result = verified[name]
    assert result.ok, result.table()
    by_name = {c.name: c.status for c in result.checks}
    for must in ("reference", "determinism", "expected outputs", "wrong solutions", "inputs"):
        assert by_name[must] is Status.OK, result.table()


@pytest.mark.slow
@pytest.mark.parametrize("name", SHIPPED)
def test_every_known_mistake_fails_a_public_case(
    verified: dict[str, Verification], name: str
) -> None:
    """Issue 37: a mistake met only in hidden cases shows the student titles and nothing to act
    on; each wrong solution fails a case the student sees in full (a time-out counts: that
    case's input is shown, and its hint)."""
    result = verified[name]
    missed = [c.script for c in result.caught if not c.public]
    assert result.caught and not missed, result.table()


@pytest.mark.parametrize("name", SHIPPED)
def test_the_reference_reads_a_last_line_without_a_newline(
    root: Root, reference_dir: Path, name: str
) -> None:
    """Issue 37: every statement allows a last line without a newline, and a public case has
    one, which the reference answers as it answers the same input with the newline."""
    exercise = load_exercise(name, root)
    bare = [c for c in exercise_cases(exercise) if not c.input.endswith(b"\n")]
    assert any(not c.secret for c in bare), "no public case without a final newline"
    case = min(bare, key=lambda c: len(c.input))
    solution = str(reference_dir / name / "solution.py")
    for data in (case.input, case.input + b"\n"):
        done = subprocess.run([sys.executable, solution], input=data, capture_output=True)
        assert (done.returncode, done.stdout.decode()) == (0, case.expected), data[-80:]


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


def _non_blank(text: str) -> int:
    return sum(1 for line in text.split("\n") if line.strip())


# exercise: the validator's bound on an input's size, and how many of those an input holds
MAXIMA: dict[str, tuple[str, Callable[[str], int]]] = {
    "quantize": ("MAX_WEIGHTS", lambda text: len(text.split("\n")[0].split())),
    "top-k": ("MAX_TOKENS", lambda text: _non_blank(text) - 1),
    "specdec": ("MAX_ROUNDS", _non_blank),
    "decode-speed": ("MAX_SETUPS", _non_blank),
    "ttft": ("MAX_SETUPS", _non_blank),
    "prefix-cache": ("MAX_EVENTS", lambda text: _non_blank(text) - 1),
    "kv-pages": ("MAX_EVENTS", lambda text: _non_blank(text) - 1),
    "batching": ("MAX_REQUESTS", lambda text: _non_blank(text) - 1),
}


@pytest.mark.parametrize("name", sorted(MAXIMA))
def test_a_case_reaches_the_statements_maximum(root: Root, reference_dir: Path, name: str) -> None:
    """The statement states the bound its validator enforces, and a case is that large: so
    that a solution of the wrong complexity times out (the time limit is set on that case)."""
    constant, count = MAXIMA[name]
    validator = reference_dir / name / "validate.py"
    found = importlib.util.spec_from_file_location(f"validate_{name.replace('-', '_')}", validator)
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    bound: int = getattr(module, constant)
    exercise = load_exercise(name, root)
    assert f"{bound:,}" in exercise.statement
    sizes = [count(c.input.decode()) for c in exercise_cases(exercise)]
    assert max(sizes) == bound


@pytest.mark.parametrize(
    ("name", "line", "why"),
    [
        ("specdec", "draft: a | target: a b", "at most 10,000 rounds, got 10,001"),
        ("decode-speed", "x 7 2 1000 1", "at most 10,000 setups, got 10,001"),
    ],
)
def test_validators_refuse_one_more_than_the_statement_allows(
    root: Root, reference_dir: Path, name: str, line: str, why: str
) -> None:
    from grader.model.material import material, validate

    exercise = load_exercise(name, root)
    biggest = max(exercise_cases(exercise), key=lambda c: len(c.input))
    data = biggest.input.rstrip(b"\n") + f"\n{line}\n".encode()
    assert validate(material(exercise), data) == why


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


@pytest.mark.parametrize(
    ("name", "data", "why"),
    [
        ("quantize", "0.9398 0.0777\n2\n", "weight 2 (0.0777) is a tie that float64"),
        ("quantize", "0.1 -0.2\n2\n", "weight 1 (0.1) is a tie that float64"),
        ("quantize", "134 67\n2\n", "weight 2 (67) is a tie that a 28-digit Decimal w / (m / 127)"),
        ("quantize", "\u0663.\u0665\n1\n", "line 1 must be decimal numbers"),
        ("quantize", "1e-320 1\n2\n", "line 1 must be decimal numbers"),
        ("quantize", "0.0000000001 1\n2\n", "is outside"),
        ("quantize", "1.0000000000001\n1\n", "significant digits"),
        ("specdec", "draft: a a | target: a b c\n" * 3 + "draft: a | target: b c\n" * 5, ""),
        ("decode-speed", "x 1e-300 2 100 1\n", "is not a decimal number"),
        ("decode-speed", "x 0.0000001 0.0000001 100 1\n", "is outside"),
        ("decode-speed", "x \uff17 2 100 1\n", "is not a decimal number"),
        ("decode-speed", "x 7\u00a02 100 1\n", "separated by single spaces"),
    ],
)
def test_validators_refuse_what_correct_solutions_could_disagree_on(
    root: Root, reference_dir: Path, name: str, data: str, why: str
) -> None:
    from grader.model.material import material, validate

    found = validate(material(load_exercise(name, root)), data.encode())
    if why:
        assert found is not None and why in found, found
    else:  # 3 x 2 + 5 x 1 = 11 tokens in 8 rounds: 1.375, no tie: accepted
        assert found is None


def _validator(reference_dir: Path, name: str) -> Any:
    found = importlib.util.spec_from_file_location(
        f"validate_{name.replace('-', '_')}", reference_dir / name / "validate.py"
    )
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    return module


def test_quantize_accepts_no_input_default_precision_decimal_breaks(reference_dir: Path) -> None:
    """Issue 37: the statement blesses Decimal arithmetic, and Python's default context (28
    digits) rounds m / 127, so w / (m / 127) for w = m / 2 came out 63.4999... on about 1 in 8
    valid inputs "m, m/2" (m = 134): q = 63 where the reference prints 64. Every such input
    the validator accepts now gives 64 in every Decimal writing it checks."""
    validate = _validator(reference_dir, "quantize")
    rng = random.Random(37)
    accepted = 0
    for _ in range(400):
        m = Decimal(rng.randint(1, 10**6)) / 10 ** rng.randint(0, 4)
        w = m / 2
        if validate.problem(f"{m} {w}\n2\n") is not None:
            continue
        accepted += 1
        with localcontext(Context()):  # a fresh default context: 28 digits, half even
            assert (round(w / (m / 127)), round(w * 127 / m)) == (64, 64), (m, w)
    assert accepted > 100  # and most of them are still fine inputs


def test_a_ratio_tie_is_refused(root: Root, reference_dir: Path) -> None:
    from grader.model.material import material, validate

    # 531 tokens in 200 rounds = 2.655: a decimal tie float64 (2.65) and exact arithmetic (2.66)
    # round apart
    rounds = "draft: a a | target: a a b\n" * 131 + "draft: a | target: a b\n" * 69
    found = validate(material(load_exercise("specdec", root)), rounds.encode())
    assert found == "531 tokens in 200 rounds: the ratio is a tie float64 breaks"


def test_every_accepted_quantize_solution_rounds_an_exact_tie_to_even(
    reference_dir: Path,
) -> None:
    """-0.25 in a group whose largest |w| is 0.5: w * 127 / 0.5 is exactly -63.5, in float64
    too, so the statement allows it; -64 whatever the arithmetic (a 40-digit Decimal that
    divides by a rounded scale once printed -63)."""
    import subprocess
    import sys

    tie = b"0.5 -0.25 0.001 3\n3\n"
    folder = reference_dir / "quantize"
    expected = subprocess.run(
        [sys.executable, str(folder / "solution.py")], input=tie, capture_output=True, check=True
    ).stdout
    assert expected.startswith(b"group 1: scale 0.00394 q 127 -64 0\n")
    for accepted in sorted((folder / "accepted").glob("*.py")):
        done = subprocess.run([sys.executable, str(accepted)], input=tie, capture_output=True)
        assert done.stdout == expected, accepted.name
