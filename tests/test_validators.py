"""Every input a validator accepts is one the reference handles: fuzzed with the generator's
inputs and with small mutations of valid ones (bytes flipped, dropped, doubled). And every
generated input is valid: a generator that makes fragile inputs would make unfair cases."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from grader.model.resources import Root

pytestmark = pytest.mark.slow

EXERCISES = (
    "quantize",
    "specdec",
    "decode-speed",
    "top-k",
    "ttft",
    "prefix-cache",
    "kv-pages",
    "batching",
)


def _run(script: Path, data: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, str(script)], input=data, capture_output=True, timeout=60
    )


def _mutations(data: bytes, rng: random.Random, count: int) -> list[bytes]:
    found = []
    for _ in range(count):
        i = rng.randrange(len(data)) if data else 0
        kind = rng.choice(("flip", "drop", "double", "digit"))
        if kind == "flip":
            found.append(data[:i] + bytes([rng.randrange(32, 127)]) + data[i + 1 :])
        elif kind == "drop":
            found.append(data[:i] + data[i + 1 :])
        elif kind == "double":
            found.append(data[:i] + data[i : i + 8] + data[i:])
        else:
            found.append(data[:i] + str(rng.randrange(10)).encode() + data[i:])
    return found


@pytest.mark.parametrize("exercise", EXERCISES)
def test_what_the_validator_accepts_the_reference_handles(root: Root, exercise: str) -> None:
    folder = root.material / exercise
    if not (folder / "validate.py").is_file():
        pytest.skip("no reference/ here")
    rng = random.Random(exercise)
    tried = accepted = 0
    for seed in range(6):
        size = (1, 3, 10, 30, 5, 2)[seed]
        data = subprocess.run(
            [sys.executable, str(folder / "generate.py"), str(seed), str(size)],
            capture_output=True,
            check=True,
        ).stdout
        verdict = _run(folder / "validate.py", data)
        assert verdict.returncode == 0, (seed, size, verdict.stderr)  # generated: always valid
        for variant in [data, *_mutations(data, rng, 12)]:
            tried += 1
            if _run(folder / "validate.py", variant).returncode != 0:
                continue
            accepted += 1
            solved = _run(folder / "solution.py", variant)
            assert solved.returncode == 0, (variant[:200], solved.stderr[-500:])
    assert accepted >= 6  # the generated ones at least
    assert tried > accepted  # and some mutations were refused: the validator does check
