"""A course's settings: ``grade.toml``, or ``[tool.grade]`` in ``pyproject.toml``, read strictly.

Every key is optional; a command-line option beats the file, the file beats the built-in default.
An unknown key is an error with a "did you mean": a typo must not silently change grading.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..judging.errors import ExerciseError
from ..judging.printed import closest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

CONFIG_FILE = "grade.toml"
PYPROJECT = "pyproject.toml"
SANDBOX_MODES = ("strict", "auto", "off")


@dataclass(frozen=True)
class Config:
    """What a course sets; ``None`` means "the built-in default"."""

    name: str | None = None  # the distribution name `grade package student` builds
    version: str = "0.1.0"
    timeout: float | None = None  # seconds per case, for every exercise
    jobs: int | None = None
    sandbox: str | None = None  # strict, auto or off
    secret_cases: str = "cases"  # the folder holding NAME/secret/, relative to the course
    submissions: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    max_submission_kb: int = 1024  # a larger script is refused (not a student's exercise)
    source: Path | None = None  # the file it came from

    @property
    def max_submission_bytes(self) -> int:
        """The largest script any command reads as a submission: the one place the cap is
        worked out (check, run, batch and the plan all read it here)."""
        return self.max_submission_kb << 10


_KEYS = (
    "name",
    "version",
    "timeout",
    "jobs",
    "sandbox",
    "secret_cases",
    "submissions",
    "max_submission_kb",
)


def has_config(folder: Path) -> bool:
    """Whether ``folder`` is a course: a ``grade.toml``, or a ``pyproject.toml`` with
    ``[tool.grade]``."""
    if (folder / CONFIG_FILE).is_file():
        return True
    pyproject = folder / PYPROJECT
    if not pyproject.is_file():
        return False
    try:
        return "grade" in _read(pyproject).get("tool", {})
    except ExerciseError:
        return True  # a broken pyproject.toml is reported when it is read as the course's


def load_config(folder: Path) -> Config:
    """The settings of the course in ``folder`` (the defaults when it has no config file)."""
    path = folder / CONFIG_FILE
    if path.is_file():
        return _parse(path, _read(path), "")
    path = folder / PYPROJECT
    if path.is_file():
        table = _read(path).get("tool", {}).get("grade")
        if table is not None:
            return _parse(path, table, "tool.grade.")
    return Config()


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            data: dict[str, Any] = tomllib.load(f)
            return data
    except OSError as exc:
        raise ExerciseError(path, f"cannot read: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ExerciseError(path, f"invalid TOML: {exc}") from exc


def did_you_mean(word: str, choices: tuple[str, ...]) -> str:
    close = closest(word, choices)
    return f"did you mean '{close}'? " if close else ""


def _parse(path: Path, table: object, prefix: str) -> Config:
    def fail(key: str, problem: str) -> ExerciseError:
        return ExerciseError(path, f"{prefix}{key}: {problem}")

    if not isinstance(table, dict):
        raise fail("", "must be a table")
    for key in table:
        if key not in _KEYS:
            raise fail(key, f"unknown key; {did_you_mean(key, _KEYS)}(known: {', '.join(_KEYS)})")

    def get(key: str, kind: type | tuple[type, ...]) -> Any:
        value = table.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, kind):
            raise fail(key, f"has the wrong type: {value!r}")
        return value

    timeout = get("timeout", (int, float))
    if timeout is not None and timeout <= 0:
        raise fail("timeout", f"must be > 0, got {timeout!r}")
    jobs = get("jobs", int)
    if jobs is not None and jobs < 1:
        raise fail("jobs", f"must be >= 1, got {jobs!r}")
    sandbox = get("sandbox", str)
    if sandbox is not None and sandbox not in SANDBOX_MODES:
        raise fail("sandbox", f"must be one of {', '.join(SANDBOX_MODES)}, got {sandbox!r}")
    max_kb = get("max_submission_kb", int)
    if max_kb is not None and not 1 <= max_kb <= 1 << 20:
        raise fail("max_submission_kb", f"must be 1 to 1048576, got {max_kb!r}")
    submissions = get("submissions", dict) or {}
    for exercise, filename in submissions.items():
        if not isinstance(filename, str) or not re.fullmatch(r"[A-Za-z0-9_][\w.-]*\.py", filename):
            raise fail(
                f"submissions.{exercise}", f"must be a file name ending in .py: {filename!r}"
            )
    return Config(
        name=get("name", str),
        version=get("version", str) or "0.1.0",
        timeout=None if timeout is None else float(timeout),
        jobs=jobs,
        sandbox=sandbox,
        secret_cases=get("secret_cases", str) or "cases",
        submissions=MappingProxyType(dict(submissions)),
        max_submission_kb=max_kb or 1024,
        source=path,
    )
