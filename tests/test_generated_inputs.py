"""Generated inputs, in bulk, for every exercise of the checkout: every one is valid, and on
every valid one each accepted solution gives an answer the exercise's comparison accepts (the
contract has one right answer however it is computed: float64, Decimal, exact fractions).

The scripts run in ``run_many.py``: one interpreter per script, thousands of inputs each.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import TESTS

from grader.model.material import Material, material
from grader.model.resources import Root
from grader.model.spec import exercise_names, load_exercise

RUN_MANY = TESTS / "run_many.py"
SIZES = (1, 2, 3, 5, 8, 13, 20, 30, 40)  # SIZE for generate.py, in turn
SEEDS = 300  # per exercise, for the generators' own check: each size of SIZES ~33 times
FUZZED = 10_000  # per exercise, in the slow pass

Request = tuple[list[str], bytes]
Result = tuple[int, bytes, bytes]


def run_many(script: Path, requests: list[Request]) -> list[Result]:
    done = subprocess.run(
        [sys.executable, str(RUN_MANY), str(script)],
        input=pickle.dumps(requests),
        capture_output=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    results: list[Result] = pickle.loads(done.stdout)
    return results


def teacher(root: Root, name: str) -> Material:
    if not root.material.is_dir():
        pytest.skip("reference/ is absent (an sdist): teacher material is not shipped")
    found = material(load_exercise(name, root))
    if not found.generator.is_file() or not found.validator.is_file():
        pytest.skip(f"{name} has no generator or no validator")
    return found


def generated(found: Material, count: int) -> list[bytes]:
    """The generator's inputs for seeds 0 to count - 1, each at a size from SIZES."""
    sizes = [str(SIZES[seed % len(SIZES)]) for seed in range(count)]
    asked: list[Request] = [([str(seed), size], b"") for seed, size in enumerate(sizes)]
    made = run_many(found.generator, asked)
    crashed = [(seed, err[-300:]) for seed, (status, _, err) in enumerate(made) if status]
    assert not crashed, crashed[:3]
    return [out for _, out, _ in made]


def refused(found: Material, inputs: list[bytes]) -> list[tuple[int, str]]:
    """(seed, reason) for each input the validator refuses."""
    verdicts = run_many(found.validator, [([], data) for data in inputs])
    return [
        (seed, err.decode().strip()[-200:])
        for seed, (status, _, err) in enumerate(verdicts)
        if status != 0
    ]


def names(root: Root) -> list[str]:
    return list(exercise_names(root))


@pytest.mark.parametrize(
    "name",
    [
        "decode-speed",
        "quantize",
        "specdec",
        "top-k",
        "ttft",
        "prefix-cache",
        "kv-pages",
        "batching",
    ],
)
def test_generators_make_only_inputs_their_validators_accept(root: Root, name: str) -> None:
    if name not in names(root):
        pytest.skip(f"no exercise {name} here")
    found = teacher(root, name)
    bad = refused(found, generated(found, SEEDS))
    assert not bad, f"{len(bad)} of {SEEDS} refused, e.g. {bad[:3]}"


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        "decode-speed",
        "quantize",
        "specdec",
        "top-k",
        "ttft",
        "prefix-cache",
        "kv-pages",
        "batching",
    ],
)
def test_every_accepted_solution_passes_on_generated_inputs(
    root: Root, name: str, tmp_path: Path
) -> None:
    if name not in names(root):
        pytest.skip(f"no exercise {name} here")
    exercise = load_exercise(name, root)
    found = teacher(root, name)
    inputs = generated(found, FUZZED)
    assert not refused(found, inputs)
    asked: list[Request] = [([], data) for data in inputs]
    reference = run_many(found.solution, asked)
    assert not [seed for seed, (status, _, _) in enumerate(reference) if status]
    expected = [out.decode() for _, out, _ in reference]
    compare = exercise.compare
    given: list[list[str]] = []  # a checker's input and expected output files, per input
    if compare.checker is not None:
        for seed, (data, want) in enumerate(zip(inputs, expected, strict=True)):
            given.append([str(tmp_path / f"{seed}.in"), str(tmp_path / f"{seed}.out")])
            (tmp_path / f"{seed}.in").write_bytes(data)
            (tmp_path / f"{seed}.out").write_text(want)
    for accepted in found.accepted_solutions():
        got = run_many(accepted, asked)
        crashed = [seed for seed, (status, _, _) in enumerate(got) if status]
        assert not crashed, f"{accepted.name} crashes on seeds {crashed[:5]}"
        if compare.checker is not None:
            checks: list[Request] = [
                (files, out) for files, (_, out, _) in zip(given, got, strict=True)
            ]
            verdicts = run_many(root.path / compare.checker, checks)
            wrong = [seed for seed, (status, _, _) in enumerate(verdicts) if status]
        else:
            assert compare.comparator is not None
            comparator = compare.comparator
            wrong = [
                seed
                for seed, (want, (_, out, _)) in enumerate(zip(expected, got, strict=True))
                if not comparator(want, out.decode()).ok
            ]
        assert not wrong, f"{accepted.name} fails {len(wrong)} of {FUZZED}: seeds {wrong[:5]}"
