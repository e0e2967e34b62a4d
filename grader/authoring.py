"""Teacher commands that write files: ``grade add-case`` and ``grade new``.

Metadata goes into the exercise's YAML as text, so that the teacher's comments and layout survive;
the edited spec is parsed again, strictly, before anything is written.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import ExerciseError, UsageError
from .expected import reference_output, regenerate
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


def _check_name(name: str, what: str) -> None:
    if not NAME.fullmatch(name):
        raise UsageError(f"{what} name {name!r}: use letters, digits, '.', '_' and '-'")


def add_case(
    exercise: Exercise,
    name: str,
    data: bytes,
    *,
    runner: Runner,
    title: str | None = None,
    hint: str | None = None,
    hidden: bool = False,
    points: float | None = None,
    force: bool = False,
) -> NewCase:
    """Validate ``data``, run the reference on it, write NAME.in/.out and the metadata."""
    _check_name(name, "case")
    source, target = exercise.cases_dir / f"{name}.in", exercise.cases_dir / f"{name}.out"
    if not force and (source.exists() or target.exists() or name in exercise.case_meta):
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
    if hidden:
        fields["visibility"] = Visibility.HIDDEN.value
    new_spec = set_case_meta(exercise.spec_path, name, fields) if fields or force else None
    exercise.cases_dir.mkdir(parents=True, exist_ok=True)
    source.write_bytes(data)
    target.write_text(expected, encoding="utf-8")
    if new_spec is not None:
        exercise.spec_path.write_text(new_spec, encoding="utf-8")
    return NewCase(name, expected)


def set_case_meta(spec: Path, name: str, fields: dict[str, object]) -> str:
    """The spec's text with ``cases.NAME`` set to ``fields`` (removed when empty), checked by
    parsing it strictly again."""
    lines = spec.read_text(encoding="utf-8").splitlines()
    try:
        start = lines.index("cases:")
    except ValueError:
        if any(line.startswith("cases:") for line in lines):
            raise ExerciseError(
                spec, "cases: is not a block mapping; add the metadata by hand"
            ) from None
        lines += ["cases:"]
        start = len(lines) - 1
    end = next((i for i in range(start + 1, len(lines)) if _TOP_LEVEL.match(lines[i])), len(lines))
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


def new_exercise(name: str, root: Root, *, runner: Runner) -> list[Path]:
    """Scaffold a working exercise (a tiny sum problem) for the teacher to edit.

    The sample's expected output comes from the scaffolded reference, like every other.
    """
    _check_name(name, "exercise")
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
