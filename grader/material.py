"""An exercise's teacher material under ``reference/NAME/``, never shipped in the wheel.

``solution.py`` the reference; ``validate.py`` reads an input on stdin and exits 0 to accept it,
or non-zero with the reason on stderr; ``generate.py SEED SIZE`` prints a random input (the same
for the same seed); ``wrong/*.py`` known-wrong solutions whose docstring says
``expect: <verdict>`` and, on its first line, the mistake it models.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .errors import ExerciseError, InternalError
from .report import Verdict
from .spec import Exercise

_EXPECT = re.compile(r"^expect:\s*(\w+)\s*$", re.MULTILINE)
TOOL_TIMEOUT_S = 60  # validators and generators are the teacher's own, trusted code


@dataclass(frozen=True)
class WrongSolution:
    path: Path
    expect: Verdict
    hint: str


@dataclass(frozen=True)
class Material:
    folder: Path

    @property
    def solution(self) -> Path:
        return self.folder / "solution.py"

    @property
    def validator(self) -> Path:
        return self.folder / "validate.py"

    @property
    def generator(self) -> Path:
        return self.folder / "generate.py"

    def wrong_solutions(self) -> tuple[WrongSolution, ...]:
        return tuple(_wrong(p) for p in sorted((self.folder / "wrong").glob("*.py")))


def material(exercise: Exercise) -> Material:
    if exercise.teacher_dir is None or not (exercise.teacher_dir / exercise.name).is_dir():
        raise InternalError(
            f"{exercise.name} has no teacher material here (reference/{exercise.name}/ is only in "
            "a checkout or a --root)"
        )
    return Material(exercise.teacher_dir / exercise.name)


def _wrong(path: Path) -> WrongSolution:
    try:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    except (OSError, SyntaxError, UnicodeDecodeError) as exc:
        raise ExerciseError(path, f"cannot read its docstring: {exc}") from exc
    found = _EXPECT.search(doc)
    if found is None or found.group(1) not in {v.value for v in Verdict}:
        known = ", ".join(v.value for v in Verdict if v is not Verdict.PASSED)
        raise ExerciseError(path, f"its docstring must say 'expect: <verdict>' ({known})")
    hint = doc.splitlines()[0].removeprefix("Known wrong:").strip() if doc else ""
    return WrongSolution(path, Verdict(found.group(1)), hint)


def validate(m: Material, data: bytes) -> str | None:
    """None when the validator accepts ``data`` (or there is no validator), else its reason."""
    if not m.validator.is_file():
        return None
    done = _tool([sys.executable, str(m.validator)], data)
    if done.returncode == 0:
        return None
    why = (done.stderr or done.stdout).decode("utf-8", errors="replace").strip().splitlines()
    return why[-1] if why else f"rejected (exit code {done.returncode})"


def generate(m: Material, seed: int, size: int) -> bytes:
    if not m.generator.is_file():
        raise ExerciseError(m.generator, "no generator for this exercise")
    done = _tool([sys.executable, str(m.generator), str(seed), str(size)], b"")
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", errors="replace").strip().splitlines()
        raise ExerciseError(m.generator, f"failed: {why[-1] if why else done.returncode}")
    return done.stdout


def _tool(argv: list[str], data: bytes) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(argv, input=data, capture_output=True, timeout=TOOL_TIMEOUT_S)
    except subprocess.TimeoutExpired as exc:
        raise ExerciseError(argv[1], f"did not finish within {TOOL_TIMEOUT_S} s") from exc
