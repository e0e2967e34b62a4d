"""A course's settings: ``grade.toml``, or ``[tool.grade]`` in ``pyproject.toml``, read strictly.

Every key is optional; a command-line option beats the file, the file beats the built-in default.
An unknown key is an error with a "did you mean": a typo must not silently change grading.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
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


# A key's check returns what is wrong with a value as the rest of the error after the key's
# name (": must be ...", or ".entry: must be ..." for a table's entry); None when nothing is.
def _positive(value: float) -> str | None:
    return None if value > 0 else f": must be > 0, got {value!r}"


def _at_least_one(value: int) -> str | None:
    return None if value >= 1 else f": must be >= 1, got {value!r}"


def _sandbox_mode(value: str) -> str | None:
    if value in SANDBOX_MODES:
        return None
    return f": must be one of {', '.join(SANDBOX_MODES)}, got {value!r}"


def _kilobytes(value: int) -> str | None:
    return None if 1 <= value <= 1 << 20 else f": must be 1 to 1048576, got {value!r}"


def _file_names(value: Mapping[str, object]) -> str | None:
    for exercise, filename in value.items():
        if not isinstance(filename, str) or not re.fullmatch(r"[A-Za-z0-9_][\w.-]*\.py", filename):
            return f".{exercise}: must be a file name ending in .py: {filename!r}"
    return None


def setting(
    default: Any,
    kind: type | tuple[type, ...],
    help: str,
    example: str,
    check: Callable[[Any], str | None] | None = None,
    convert: Callable[[Any], Any] | None = None,
) -> Any:
    """A grade.toml key, declared once: the field's name is the key, with its default, the TOML
    type it takes, what may be wrong with a value, and the docs' line (``example`` and ``help``)."""
    factory: dict[str, Any] = (
        {"default_factory": lambda: MappingProxyType({})} if kind is dict else {}
    )
    known = {} if factory else {"default": default}
    if convert is None:
        convert = (lambda v: MappingProxyType(dict(v))) if kind is dict else (lambda v: v)
    meta = {"kind": kind, "help": help, "example": example, "check": check, "convert": convert}
    return field(**known, **factory, metadata=meta)


@dataclass(frozen=True)
class Config:
    """What a course sets; ``None`` means "the built-in default"."""

    name: str | None = setting(
        None,
        str,
        "the student package's name (default course-grade, never the folder's)",
        '"llm-course-grade"',
    )
    version: str = setting("0.1.0", str, "", '"0.1.0"')
    timeout: float | None = setting(
        None,
        (int, float),
        "seconds per case for every exercise (default: each spec's limit)",
        "10",
        _positive,
        float,
    )
    jobs: int | None = setting(
        None, int, "case-runs at once (default: the number of CPUs)", "2", _at_least_one
    )
    sandbox: str | None = setting(None, str, "strict, auto or off", '"auto"', _sandbox_mode)
    secret_cases: str = setting(
        "cases", str, 'the folder holding NAME/secret/, e.g. "../course-secrets"', '"cases"'
    )
    max_submission_kb: int = setting(
        1024, int, "a larger script is refused, in check and batch alike", "1024", _kilobytes
    )
    submissions: Mapping[str, str] = setting(
        None,
        dict,
        "the file a student submits, per exercise: batch grades it in a\nfolder holding "
        "several; run_autograder too (default: NAME.py)",
        'kv-pages = "pages.py"',
        _file_names,
    )
    source: Path | None = None  # the file it came from (not a key)

    @property
    def max_submission_bytes(self) -> int:
        """The largest script any command reads as a submission: the one place the cap is
        worked out (check, run, batch and the plan all read it here)."""
        return self.max_submission_kb << 10


KEYS = tuple(f for f in fields(Config) if "kind" in f.metadata)
_KEYS = tuple(f.name for f in KEYS)


def example_file() -> str:
    """grade.toml with every key, each with its line of help: the docs' block (a test holds
    docs/teachers.md to it)."""
    lines = []
    for key in KEYS:
        help_lines = key.metadata["help"].split("\n")
        if key.metadata["kind"] is dict:  # a table: last, its entries below its header
            first = f"[{key.name}]"
        else:
            first = f"{key.name} = {key.metadata['example']}"
        lines.append(f"{first:<27} # {help_lines[0]}".rstrip(" #") if help_lines[0] else first)
        lines += [f"{'':<27} # {more}" for more in help_lines[1:]]
        if key.metadata["kind"] is dict:
            lines.append(key.metadata["example"])
    return "\n".join(lines) + "\n"


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

    values: dict[str, Any] = {}
    for declared in KEYS:
        value = table.get(declared.name)
        if value is None:
            continue
        kind = declared.metadata["kind"]
        if isinstance(value, bool) or not isinstance(value, kind):
            raise fail(declared.name, f"has the wrong type: {value!r}")
        check = declared.metadata["check"]
        problem = None if check is None else check(value)
        if problem is not None:
            raise ExerciseError(path, f"{prefix}{declared.name}{problem}")
        if value == "" and declared.default is not None:
            continue  # an empty version or folder is the default's
        values[declared.name] = declared.metadata["convert"](value)
    return Config(**values, source=path)
