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

import yaml

from ..files import write_atomically
from ..judging.errors import ExerciseError, UsageError
from ..judging.records import Visibility
from ..judging.runs import Runner
from ..model.cases import (
    CASES_META_FILE,
    case_files,
    folder_of,
    public_folder,
    secret_folder,
    secret_meta,
)
from ..model.material import material, validate
from ..model.resources import Root
from ..model.spec import SPEC_SUFFIX, CaseMeta, Exercise, parse_case_meta, parse_yaml, read_yaml
from .expected import reference_output, regenerate

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
    for folder in (public_folder(exercise), secret_folder(exercise)):
        files = case_files(folder, name)
        if any(p.exists() for p in files):
            return files
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
        fields["points"] = _number(points)
    if hint is not None:
        fields["hint"] = hint
    if sample:
        fields["sample"] = True
    if visibility is Visibility.AFTER_DUE_DATE:
        fields["visibility"] = visibility.value
    writes = _meta_writes(exercise, name, fields, secret=secret) if fields or force else []
    folder = folder_of(exercise, secret=secret)
    folder.mkdir(parents=True, exist_ok=True)
    if existing is not None:
        for old in existing:
            old.unlink(missing_ok=True)
    input_file, output_file = case_files(folder, name)
    write_atomically(input_file, data)
    write_atomically(output_file, expected)
    for path, text in writes:
        write_atomically(path, text)
    return NewCase(name, expected, folder)


def _number(value: float) -> float | int:
    """2, not 2.0, in a spec a teacher reads."""
    return int(value) if float(value).is_integer() else value


def _fields(meta: CaseMeta) -> dict[str, object]:
    fields: dict[str, object] = {}
    if meta.title is not None:
        fields["title"] = meta.title
    if meta.points != 1.0:
        fields["points"] = _number(meta.points)
    if meta.hint is not None:
        fields["hint"] = meta.hint
    if meta.visibility is not None:
        fields["visibility"] = meta.visibility.value
    if meta.sample:
        fields["sample"] = True
    return fields


def set_secret_meta(path: Path, name: str, fields: dict[str, object]) -> str:
    """``secret/cases.yaml`` with NAME's metadata set to ``fields`` (removed when empty).
    The file is the grader's to write: it is dumped again, sorted, comments not kept."""
    data = (read_yaml(path) or {}) if path.is_file() else {}
    if not isinstance(data, dict):
        raise ExerciseError(path, "must be a mapping of case name to metadata")
    data.pop(name, None)
    if fields:
        data[name] = fields
    text = yaml.safe_dump(data, sort_keys=True, allow_unicode=True) if data else "{}\n"
    parse_case_meta(path, parse_yaml(path, text))
    return text


def _meta_writes(
    exercise: Exercise, name: str, fields: dict[str, object], *, secret: bool
) -> list[tuple[Path, str]]:
    """The files to write so that NAME's metadata is ``fields``, kept where its folder says:
    in the spec (public, shipped) or in ``secret/cases.yaml`` (never shipped)."""
    hidden = secret_folder(exercise) / CASES_META_FILE
    writes = []
    in_spec = name in exercise.case_meta
    in_hidden = name in secret_meta(exercise)
    if secret:
        if in_spec:
            writes.append((exercise.spec_path, set_case_meta(exercise.spec_path, name, {})))
        if fields or in_hidden:
            writes.append((hidden, set_secret_meta(hidden, name, fields)))
    else:
        if in_hidden:
            writes.append((hidden, set_secret_meta(hidden, name, {})))
        if fields or in_spec:
            writes.append((exercise.spec_path, set_case_meta(exercise.spec_path, name, fields)))
    return writes


def remove_case(exercise: Exercise, name: str) -> tuple[Path, ...]:
    """Delete case NAME's files and metadata; returns the files removed."""
    _check_name(name, "case")
    writable_course(exercise.root)
    files = _case_files(exercise, name)
    hidden = secret_meta(exercise)
    if files is None and name not in exercise.case_meta and name not in hidden:
        raise UsageError(f"{exercise.name} has no case {name}")
    # empty fields: the case's metadata goes from the spec and from secret/cases.yaml alike
    for path, text in _meta_writes(exercise, name, {}, secret=True):
        write_atomically(path, text)
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
    hidden = secret_meta(exercise)
    taken = new in exercise.case_meta or new in hidden
    if new != old and (_case_files(exercise, new) is not None or taken):
        raise UsageError(f"case {new} exists in {exercise.name}")
    in_secret = files[0].parent == secret_folder(exercise)
    to_secret = in_secret if secret is None else secret
    meta = exercise.case_meta.get(old) or hidden.get(old)
    fields = _fields(meta) if meta is not None else {}
    if to_secret and fields.get("sample"):
        raise UsageError(f"case {old} is a sample: a secret case cannot be (edit its metadata)")
    if not to_secret:
        fields.pop("visibility", None)  # a public case is shown, whatever it said as a secret
    folder = folder_of(exercise, secret=to_secret)
    if case_files(folder, new)[0] == files[0]:
        raise UsageError(f"case {old} is there already")
    if meta is not None and in_secret == to_secret and not in_secret:
        writes = [(exercise.spec_path, rename_case_meta(exercise.spec_path, old, new))]
    else:
        writes = _meta_writes(exercise, old, {}, secret=in_secret)
    folder.mkdir(parents=True, exist_ok=True)
    moved = []
    for path, target in zip(files, case_files(folder, new), strict=True):
        path.rename(target)
        moved.append(target)
    for path, text in writes:
        write_atomically(path, text)
    if fields and not (in_secret == to_secret and not in_secret):
        from ..model.spec import load_exercise

        after = load_exercise(exercise.name, exercise.root)
        for path, text in _meta_writes(after, new, fields, secret=to_secret):
            write_atomically(path, text)
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
    head = lines[: start + 1]
    if all(not line.strip() or line.strip().startswith("#") for line in block):
        head = lines[:start]  # no case left: no bare "cases:" (null) either
    text = "\n".join([*head, *block, *lines[end:]]) + "\n"
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
        write_atomically(path, text)  # Ctrl-C leaves no half a file for verify to trip on
        written.append(path)
    from ..model.spec import load_exercise

    written += [item.path for item in regenerate(load_exercise(name, root), runner=runner)]
    return written
