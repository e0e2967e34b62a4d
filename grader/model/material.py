"""An exercise's teacher material under ``reference/NAME/``, never shipped in the wheel.

``solution.py`` the reference solution (the only source of expected outputs); ``validate.py``
reads an input on stdin and exits 0 to accept it, or non-zero with the reason on stderr;
``generate.py SEED SIZE`` prints a random input (the same for the same seed); ``wrong/*.py``
known-wrong solutions whose docstring says ``expect: <verdict>`` and, in its first paragraph,
the mistake it models; ``accepted/*.py`` correct solutions written otherwise (exact arithmetic,
another formula, another loop shape), which every case must accept.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..judging.errors import ExerciseError, InternalError
from ..judging.printed import decode, last_line
from ..judging.records import Verdict
from ..sandbox.cpus import at_once
from .cases import lf_lines
from .spec import Exercise

_EXPECT = re.compile(r"^expect:\s*(\w+)\s*$", re.MULTILINE)
TOOL_TIMEOUT_S = 60  # validators and generators are the teacher's own, trusted code


@dataclass(frozen=True)
class WrongSolution:
    path: Path
    expect: Verdict
    mistake: str  # the docstring's first paragraph, e.g. "rounds half away from zero."


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

    def accepted_solutions(self) -> tuple[Path, ...]:
        """Correct solutions written differently from the reference: each must pass every case."""
        return tuple(sorted((self.folder / "accepted").glob("*.py")))

    def wrong_solutions(self) -> tuple[WrongSolution, ...]:
        return tuple(_wrong(p) for p in sorted((self.folder / "wrong").glob("*.py")))


def material(exercise: Exercise) -> Material:
    """The exercise's teacher material, or ``InternalError`` where it is not shipped."""
    folder = exercise.root.material / exercise.name
    if not (folder / "solution.py").is_file():
        raise InternalError(
            f"{exercise.name} has no reference solution here (reference/{exercise.name}/ is "
            "teacher material, only in a checkout or a --root)"
        )
    return Material(folder)


def _wrong(path: Path) -> WrongSolution:
    try:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    except (OSError, SyntaxError, UnicodeDecodeError) as exc:
        raise ExerciseError(path, f"cannot read its docstring: {exc}") from exc
    found = _EXPECT.search(doc)
    if found is None or found.group(1) not in {v.value for v in Verdict}:
        known = ", ".join(v.value for v in Verdict if v is not Verdict.PASSED)
        raise ExerciseError(path, f"its docstring must say 'expect: <verdict>' ({known})")
    # the first paragraph, however many lines it was wrapped on: its first line alone left a
    # wrapped one cut off mid-sentence ("... to avoid choosing")
    paragraph = " ".join(line.strip() for line in doc.split("\n\n")[0].splitlines())
    mistake = paragraph.removeprefix("Known wrong:").strip()
    return WrongSolution(path, Verdict(found.group(1)), mistake)


def validate(m: Material, data: bytes) -> str | None:
    """None when the validator accepts ``data`` (or there is no validator), else its reason."""
    if not m.validator.is_file():
        return None
    done = _tool([sys.executable, str(m.validator)], data)
    if done.returncode == 0:
        return None
    why = last_line(decode(done.stderr or done.stdout))
    return why or f"rejected (exit code {done.returncode})"


def validate_each(m: Material, inputs: Sequence[bytes]) -> list[str | None]:
    """``validate`` of each input, in order, a validator per CPU at once."""
    return at_once(lambda data: validate(m, data), inputs)


def generate_each(m: Material, asked: Sequence[tuple[int, int]]) -> list[bytes]:
    """``generate`` of each (seed, size), in order, a generator per CPU at once; the first
    failure in that order raises."""
    return at_once(lambda pair: generate(m, *pair), asked)


def generate(m: Material, seed: int, size: int) -> bytes:
    if not m.generator.is_file():
        raise ExerciseError(m.generator, "no generator for this exercise")
    done = _tool([sys.executable, str(m.generator), str(seed), str(size)], b"")
    if done.returncode != 0:
        why = last_line(decode(done.stderr)) or f"exit code {done.returncode}"
        raise ExerciseError(m.generator, f"failed: {why}")
    return lf_lines(done.stdout)  # print() on Windows ends its lines with "\r\n"


def _tool(argv: list[str], data: bytes) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(argv, input=data, capture_output=True, timeout=TOOL_TIMEOUT_S)
    except subprocess.TimeoutExpired as exc:
        raise ExerciseError(argv[1], f"did not finish within {TOOL_TIMEOUT_S} s") from exc
