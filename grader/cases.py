"""Load a folder of ``NAME.in`` / ``NAME.out`` pairs into ``Case`` records, in name order."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .errors import ExerciseError
from .spec import CaseMeta, Visibility


@dataclass(frozen=True)
class Case:
    name: str
    input: bytes
    expected: str
    title: str
    points: float = 1.0
    hint: str | None = None
    visibility: Visibility = Visibility.VISIBLE
    sample: bool = False


def load_cases(
    directory: Path, meta: Mapping[str, CaseMeta], *, meta_source: Path | None = None
) -> tuple[Case, ...]:
    """Every pair in ``directory``; ``meta`` keys naming no case are errors of ``meta_source``."""
    if not directory.is_dir():
        raise ExerciseError(directory, "no such case folder")
    inputs = {p.stem: p for p in directory.glob("*.in")}
    outputs = {p.stem: p for p in directory.glob("*.out")}
    for stem in sorted(inputs.keys() - outputs.keys()):
        raise ExerciseError(inputs[stem], f"has no expected output {stem}.out beside it")
    for stem in sorted(outputs.keys() - inputs.keys()):
        raise ExerciseError(outputs[stem], f"has no input {stem}.in beside it")
    if not inputs:
        raise ExerciseError(directory, "holds no cases (NAME.in + NAME.out pairs)")
    if meta_source is not None:
        for name in sorted(meta.keys() - inputs.keys()):
            raise ExerciseError(meta_source, f"cases.{name}: no case {name}.in in {directory}")
    return tuple(
        _case(name, inputs[name], outputs[name], meta.get(name)) for name in sorted(inputs)
    )


def _case(name: str, input_path: Path, output_path: Path, meta: CaseMeta | None) -> Case:
    meta = meta or CaseMeta()
    try:
        data = input_path.read_bytes()
        expected = output_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ExerciseError(output_path, f"cannot read: {exc}") from exc
    return Case(
        name=name,
        input=data,
        expected=expected,
        title=meta.title or name,
        points=meta.points,
        hint=meta.hint,
        visibility=meta.visibility,
        sample=meta.sample,
    )
