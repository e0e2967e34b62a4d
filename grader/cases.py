"""Load a folder of ``NAME.in`` / ``NAME.out`` pairs into ``Case`` records, in name order."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from .errors import ExerciseError
from .records import Case, Visibility
from .spec import CaseMeta, Exercise, parse_case_meta, read_yaml

CASES_META_FILE = "cases.yaml"
_NO_META = CaseMeta()


def load_cases(
    directory: Path,
    meta: Mapping[str, CaseMeta],
    *,
    meta_source: Path | None = None,
    default: CaseMeta = _NO_META,
) -> tuple[Case, ...]:
    """Every pair in ``directory``; ``meta`` keys naming no case are errors of ``meta_source``;
    a case without metadata gets ``default``'s."""
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
        _case(name, inputs[name], outputs[name], meta.get(name, default)) for name in sorted(inputs)
    )


def _case(name: str, input_path: Path, output_path: Path, meta: CaseMeta) -> Case:
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


def exercise_cases(exercise: Exercise, cases_dir: Path | None = None) -> tuple[Case, ...]:
    """The exercise's own cases, or those of ``cases_dir`` (CI's hidden cases).

    A ``cases.yaml`` beside a ``--cases`` folder gives its cases titles, points and visibility;
    without one its cases are hidden: a folder passed to CI is secret unless it says otherwise.
    """
    if cases_dir is None:
        return load_cases(exercise.cases_dir, exercise.case_meta, meta_source=exercise.spec_path)
    meta_file = cases_dir / CASES_META_FILE
    if meta_file.is_file():
        meta = parse_case_meta(meta_file, read_yaml(meta_file))
        return load_cases(cases_dir, meta, meta_source=meta_file)
    return load_cases(cases_dir, {}, default=CaseMeta(visibility=Visibility.HIDDEN))
