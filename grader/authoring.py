"""Teacher commands that write files: ``grade add-case`` and ``grade new``.

Metadata goes into the exercise's YAML as text, so that the teacher's comments and layout survive;
the edited spec is parsed again, strictly, before anything is written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from .errors import ExerciseError, UsageError
from .expected import reference_output, regenerate
from .files import write_atomically
from .grading import Runner
from .material import material, validate
from .records import Visibility
from .resources import Root
from .spec import SPEC_SUFFIX, Exercise, parse_case_meta, parse_yaml

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_TOP_LEVEL = re.compile(r"^[^\s#]")


@dataclass(frozen=True)
class NewCase:
    name: str
    expected: str  # what the reference printed, the case's .out
    folder: Path  # public/ or secret/


def _check_name(name: str, what: str) -> None:
    if not NAME.fullmatch(name) or len(name) > 100:
        raise UsageError(
            f"{what} name {name!r}: use letters, digits, '.', '_' and '-' (100 at most)"
        )


def _case_files(exercise: Exercise, name: str) -> tuple[Path, Path] | None:
    """The case's .in and .out, in whichever of public/ and secret/ holds it."""
    for folder in (exercise.public_cases, exercise.secret_cases):
        if (folder / f"{name}.in").exists() or (folder / f"{name}.out").exists():
            return folder / f"{name}.in", folder / f"{name}.out"
    return None


def add_case(
    exercise: Exercise,
    name: str,
    data: bytes,
    *,
    runner: Runner,
    title: str | None = None,
    hint: str | None = None,
    secret: bool = False,
    sample: bool = False,
    visibility: Visibility | None = None,
    points: float | None = None,
    force: bool = False,
) -> NewCase:
    """Validate ``data``, run the reference on it, write NAME.in/.out (into ``public/`` or
    ``secret/``) and the metadata."""
    _check_name(name, "case")
    writable_course(exercise.root)
    secret = secret or visibility in (Visibility.HIDDEN, Visibility.AFTER_DUE_DATE)
    if secret and (sample or visibility is Visibility.VISIBLE):
        raise UsageError("a secret case is never shown: it cannot be a sample or visible")
    existing = _case_files(exercise, name)
    if not force and (existing is not None or name in exercise.case_meta):
        raise UsageError(f"case {name} exists in {exercise.name}; pass --force to replace it")
    why = validate(material(exercise), data)
    if why is not None:
        raise UsageError(f"the input is invalid for {exercise.name}: {why}")
    expected = reference_output(exercise, data, runner=runner)  # InternalError if it fails
    fields: dict[str, object] = {}
    if title is not None:
        fields["title"] = title
    if points is not None:
        fields["points"] = points
    if hint is not None:
        fields["hint"] = hint
    if sample:
        fields["sample"] = True
    if visibility is Visibility.AFTER_DUE_DATE:
        fields["visibility"] = visibility.value
    new_spec = set_case_meta(exercise.spec_path, name, fields) if fields or force else None
    folder = exercise.secret_cases if secret else exercise.public_cases
    folder.mkdir(parents=True, exist_ok=True)
    if existing is not None:
        for old in existing:
            old.unlink(missing_ok=True)
    write_atomically(folder / f"{name}.in", data)
    write_atomically(folder / f"{name}.out", expected)
    if new_spec is not None:
        write_atomically(exercise.spec_path, new_spec)
    return NewCase(name, expected, folder)


def remove_case(exercise: Exercise, name: str) -> tuple[Path, ...]:
    """Delete case NAME's files and metadata; returns the files removed."""
    _check_name(name, "case")
    writable_course(exercise.root)
    files = _case_files(exercise, name)
    if files is None and name not in exercise.case_meta:
        raise UsageError(f"{exercise.name} has no case {name}")
    if name in exercise.case_meta:
        write_atomically(exercise.spec_path, set_case_meta(exercise.spec_path, name, {}))
    removed = tuple(p for p in files or () if p.exists())
    for path in removed:
        path.unlink()
    return removed


def move_case(
    exercise: Exercise, old: str, new: str, *, secret: bool | None = None
) -> tuple[Path, ...]:
    """Rename case OLD to NEW (files and metadata), moving it to ``secret/`` or ``public/``
    when ``secret`` says so; returns the new files."""
    _check_name(old, "case")
    _check_name(new, "case")
    writable_course(exercise.root)
    files = _case_files(exercise, old)
    if files is None:
        raise UsageError(f"{exercise.name} has no case {old}")
    if new != old and (_case_files(exercise, new) is not None or new in exercise.case_meta):
        raise UsageError(f"case {new} exists in {exercise.name}")
    in_secret = files[0].parent == exercise.secret_cases
    to_secret = in_secret if secret is None else secret
    meta = exercise.case_meta.get(old)
    if meta is not None and to_secret and meta.sample:
        raise UsageError(f"case {old} is a sample: a secret case cannot be (edit its metadata)")
    folder = exercise.secret_cases if to_secret else exercise.public_cases
    if folder / f"{new}.in" == files[0]:
        raise UsageError(f"case {old} is there already")
    new_spec = rename_case_meta(exercise.spec_path, old, new) if meta is not None else None
    folder.mkdir(parents=True, exist_ok=True)
    moved = []
    for path in files:
        target = folder / f"{new}{path.suffix}"
        path.rename(target)
        moved.append(target)
    if new_spec is not None:
        write_atomically(exercise.spec_path, new_spec)
    return tuple(moved)


def _cases_block(lines: list[str], spec: Path) -> tuple[int, int] | None:
    """Where the top-level ``cases:`` block's entries start and end, if the spec has one."""
    try:
        start = lines.index("cases:")
    except ValueError:
        if any(line.startswith("cases:") for line in lines):
            raise ExerciseError(
                spec, "cases: is not a block mapping; edit the metadata by hand"
            ) from None
        return None
    end = next((i for i in range(start + 1, len(lines)) if _TOP_LEVEL.match(lines[i])), len(lines))
    return start + 1, end


def rename_case_meta(spec: Path, old: str, new: str) -> str:
    """The spec's text with the key ``cases.OLD`` renamed to NEW, checked by parsing it again."""
    lines = spec.read_text(encoding="utf-8").splitlines()
    block = _cases_block(lines, spec)
    found = None
    if block is not None:
        found = next((i for i in range(*block) if lines[i].strip() == f"{old}:"), None)
    if found is None:
        raise ExerciseError(spec, f"cases.{old} is not a plain block entry; rename it by hand")
    lines[found] = lines[found].replace(f"{old}:", f"{new}:", 1)
    text = "\n".join(lines) + "\n"
    if new not in parse_case_meta(spec, (parse_yaml(spec, text) or {}).get("cases")):
        raise ExerciseError(spec, f"could not rename cases.{old}; rename it by hand")
    return text


def set_case_meta(spec: Path, name: str, fields: dict[str, object]) -> str:
    """The spec's text with ``cases.NAME`` set to ``fields`` (removed when empty), checked by
    parsing it strictly again."""
    lines = spec.read_text(encoding="utf-8").splitlines()
    found = _cases_block(lines, spec)
    if found is None:
        if not fields:
            return "\n".join(lines) + "\n"
        lines += ["cases:"]
        found = len(lines), len(lines)
    start, end = found[0] - 1, found[1]
    block = lines[start + 1 : end]
    # drop the case's old entry: its key line and every line indented deeper than it
    key = next((i for i, line in enumerate(block) if line.strip() == f"{name}:"), None)
    if key is not None:
        indent = len(block[key]) - len(block[key].lstrip())
        stop = key + 1
        while stop < len(block) and (
            not block[stop].strip() or len(block[stop]) - len(block[stop].lstrip()) > indent
        ):
            stop += 1
        block[key:stop] = []
    while block and not block[-1].strip():
        block.pop()
    if fields:
        # JSON strings and numbers are valid YAML scalars, quoted safely
        block += [f"  {name}:", *(f"    {k}: {json.dumps(v)}" for k, v in fields.items())]
    text = "\n".join([*lines[: start + 1], *block, *lines[end:]]) + "\n"
    meta = parse_case_meta(spec, (parse_yaml(spec, text) or {}).get("cases")).get(name)
    if fields and meta is None:
        raise ExerciseError(spec, f"could not add cases.{name}; add the metadata by hand")
    return text


def writable_course(root: Root) -> None:
    """``UsageError`` unless ``root`` is a course folder a teacher owns (not an installed
    package, where a new file would be lost on the next install)."""
    if root.installed:
        raise UsageError(
            f"{root.path} is inside the installed grader, not a course; start one with "
            "'grade init DIR' and run this inside it (or pass --root DIR)"
        )


def new_exercise(
    name: str, root: Root, *, runner: Runner, reserved: Collection[str] = ()
) -> list[Path]:
    """Scaffold a working exercise (a tiny sum problem) for the teacher to edit; ``reserved``
    are names that would not reach it on the command line (the commands'). Returns the
    absolute paths written.

    The cases' expected outputs come from the scaffolded reference, like every other.
    """
    _check_name(name, "exercise")
    if name in reserved:
        raise UsageError(
            f"{name!r} is a grade command; an exercise of that name could not be graded"
        )
    writable_course(root)
    spec = root.exercises / f"{name}{SPEC_SUFFIX}"
    folders = [root.cases / name, root.material / name]
    taken = [p for p in (spec, *folders) if p.exists()]
    if taken:
        raise UsageError(f"exercise {name} exists already: {taken[0]}")
    from . import scaffold

    written = []
    for relative, text in scaffold.files(name).items():
        path = root.path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    from .spec import load_exercise

    written += [item.path for item in regenerate(load_exercise(name, root), runner=runner)]
    return written
