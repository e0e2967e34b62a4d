"""Load an exercise's cases into ``Case`` records, in name order; the one module that knows
where cases live and how a case is written (``NAME.in`` + ``NAME.out``).

An exercise's cases live by what students may see, as Kattis's ``data/sample`` and
``data/secret``: ``cases/NAME/public/`` ships with the grader and is shown in full;
``cases/NAME/secret/`` never ships and is graded where it is present (CI, the teacher's copy,
Gradescope), its details hidden (or shown after the due date, where the platform does that).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from ..judging.errors import ExerciseError
from ..judging.records import Case, Visibility
from .spec import CaseMeta, Exercise, parse_case_meta, read_yaml

CASES_META_FILE = "cases.yaml"
PUBLIC, SECRET = "public", "secret"  # an exercise's two case folders, by what students may see
INPUT, OUTPUT = ".in", ".out"  # a case is NAME.in + NAME.out
_NO_META = CaseMeta()


def lf_lines(data: bytes) -> bytes:
    """An input as grade reads every input, wherever it came from: each "\\r\\n" a "\\n". A
    checkout with core.autocrlf (Windows) writes case files so, and print() on Windows a
    generator's output: the input, and so its verdict, is the same on every machine."""
    return data.replace(b"\r\n", b"\n")


def public_folder(exercise: Exercise) -> Path:
    """``cases/NAME/public/``: shipped to students, shown in full."""
    return exercise.cases_dir / PUBLIC


def secret_folder(exercise: Exercise) -> Path:
    """``NAME/secret/`` under the course's ``secret_cases`` folder (``cases/`` by default):
    never shipped; present in the teacher's copy, CI and the Gradescope package only."""
    return exercise.root.secret_cases / exercise.name / SECRET


def folder_of(exercise: Exercise, *, secret: bool) -> Path:
    return secret_folder(exercise) if secret else public_folder(exercise)


def case_files(folder: Path, name: str) -> tuple[Path, Path]:
    """Case ``name``'s input and expected output in ``folder``."""
    return folder / f"{name}{INPUT}", folder / f"{name}{OUTPUT}"


def case_names(folder: Path) -> list[str]:
    """The cases in ``folder`` (by their inputs), in name order; none if it does not exist."""
    return sorted(p.stem for p in folder.glob(f"*{INPUT}")) if folder.is_dir() else []


def course_paths(exercise: Exercise, case: Case, top: str) -> dict[str, Path]:
    """Where ``case``'s two files go in a course folder written under ``top`` (a package's
    data, a Gradescope course), and where they are now."""
    kind = SECRET if case.secret else PUBLIC
    here = case_files(folder_of(exercise, secret=case.secret), case.name)
    return {f"{top}/cases/{exercise.name}/{kind}/{p.name}": p for p in here}


def load_cases(
    directory: Path,
    meta: Mapping[str, CaseMeta],
    *,
    secret: bool,
    meta_source: Path | None = None,
    default: CaseMeta = _NO_META,
) -> tuple[Case, ...]:
    """Every pair in ``directory``; ``meta`` keys naming no case are errors of ``meta_source``;
    a case without metadata gets ``default``'s; ``secret``: the folder never ships."""
    if not directory.is_dir():
        raise ExerciseError(directory, "no such case folder")
    inputs = {p.stem: p for p in directory.glob(f"*{INPUT}")}
    outputs = {p.stem: p for p in directory.glob(f"*{OUTPUT}")}
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
        _case(
            name, inputs[name], outputs[name], meta.get(name, default), default.visibility, secret
        )
        for name in sorted(inputs)
    )


def _pairs(directory: Path) -> set[str]:
    if not directory.is_dir():
        return set()
    return {p.stem for p in directory.iterdir() if p.suffix in (INPUT, OUTPUT)}


def secret_meta(exercise: Exercise) -> Mapping[str, CaseMeta]:
    """The secret cases' titles, points, hints and visibility: ``secret/cases.yaml``, which
    never ships (the spec ships, and a hint can give a case away)."""
    path = secret_folder(exercise) / CASES_META_FILE
    return parse_case_meta(path, read_yaml(path)) if path.is_file() else {}


def own_cases(exercise: Exercise) -> tuple[Case, ...]:
    """The public cases and, where they are present, the secret ones."""
    stray = sorted(exercise.cases_dir.glob(f"*{INPUT}")) + sorted(
        exercise.cases_dir.glob(f"*{OUTPUT}")
    )
    if stray:
        raise ExerciseError(
            stray[0],
            f"cases live in {public_folder(exercise)} (shipped, shown) or "
            f"{secret_folder(exercise)} (never shipped): move it to one of them",
        )
    public, secret = _pairs(public_folder(exercise)), _pairs(secret_folder(exercise))
    for name in sorted(public & secret):
        raise ExerciseError(
            secret_folder(exercise) / f"{name}.in", "a public case has this name too"
        )
    if not public and not secret:
        where = public_folder(exercise) if secret_folder(exercise).is_dir() else exercise.cases_dir
        raise ExerciseError(where, "holds no cases (NAME.in + NAME.out pairs)")
    hidden_meta = secret_meta(exercise)
    hidden_file = secret_folder(exercise) / CASES_META_FILE
    for name in sorted(hidden_meta.keys() & exercise.case_meta.keys()):
        raise ExerciseError(hidden_file, f"{name}: its metadata is in {exercise.spec_path} too")
    for name in sorted(hidden_meta.keys() - secret):
        raise ExerciseError(hidden_file, f"{name}: no case {name}.in in {secret_folder(exercise)}")
    if secret_folder(exercise).is_dir():  # else the spec may name secret cases not here
        for name in sorted(exercise.case_meta.keys() - public - secret):
            raise ExerciseError(exercise.spec_path, f"cases.{name}: no case {name}.in")
    for name, meta in exercise.case_meta.items():
        if name in public and meta.visibility not in (None, Visibility.VISIBLE):
            raise ExerciseError(
                exercise.spec_path,
                f"cases.{name}.visibility: a public case is shown to students; "
                f"move it to {secret_folder(exercise)} to keep it secret",
            )
    everything = {**exercise.case_meta, **hidden_meta}
    for name, meta in everything.items():
        if name in secret and meta.visibility is Visibility.VISIBLE:
            raise ExerciseError(
                hidden_file if name in hidden_meta else exercise.spec_path,
                f"{name}.visibility: a secret case is never shown; move it to "
                f"{public_folder(exercise)} to show it",
            )
    found: list[Case] = []
    for folder, names, visibility in (
        (public_folder(exercise), public, Visibility.VISIBLE),
        (secret_folder(exercise), secret, Visibility.HIDDEN),
    ):
        if names:
            own = {k: v for k, v in everything.items() if k in names}
            default = CaseMeta(visibility=visibility)
            hidden = visibility is Visibility.HIDDEN
            found += load_cases(folder, own, secret=hidden, default=default)
    return tuple(sorted(found, key=lambda c: c.name))


def _case(
    name: str,
    input_path: Path,
    output_path: Path,
    meta: CaseMeta,
    folder: Visibility | None,
    secret: bool,
) -> Case:
    try:
        data = lf_lines(input_path.read_bytes())  # (read_text turns "\r\n" too)
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
        visibility=meta.visibility or folder or Visibility.VISIBLE,
        sample=meta.sample,
        secret=secret,
    )


def exercise_cases(exercise: Exercise, cases_dir: Path | None = None) -> tuple[Case, ...]:
    """The exercise's own cases, or those of ``cases_dir`` (CI's hidden cases).

    A ``cases.yaml`` beside a ``--cases`` folder gives its cases titles, points and visibility;
    without one its cases are hidden: a folder passed to CI is secret unless it says otherwise.
    """
    if cases_dir is None:
        return own_cases(exercise)
    meta_file = cases_dir / CASES_META_FILE
    if meta_file.is_file():
        meta = parse_case_meta(meta_file, read_yaml(meta_file))
        return load_cases(cases_dir, meta, secret=True, meta_source=meta_file)
    hidden = CaseMeta(visibility=Visibility.HIDDEN)
    return load_cases(cases_dir, {}, secret=True, default=hidden)  # CI's: never shipped


# How many secret cases each exercise has, for a copy without them: written by `grade package
# student` beside the course, and by `grade regen` into cases/ (which ships, public cases and
# all, in a plain install of a course's checkout: its students learn that CI grades more).
SECRET_COUNTS = "secret-cases.json"


def secret_cases_elsewhere(exercise: Exercise) -> int:
    """How many secret cases of ``exercise`` exist but are not in this copy (a student's)."""
    if secret_folder(exercise).is_dir():
        return 0
    for where in (exercise.root.path / SECRET_COUNTS, exercise.root.cases / SECRET_COUNTS):
        try:
            counts = json.loads(where.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        count = counts.get(exercise.name, 0) if isinstance(counts, dict) else 0
        return count if isinstance(count, int) else 0
    return 0


def secret_counts_file(exercise: Exercise) -> dict[Path, str]:
    """What ``cases/secret-cases.json`` should hold with ``exercise``'s secret cases counted as
    they are here (nothing where they are not here: a student's copy keeps its file)."""
    if not secret_folder(exercise).is_dir():
        return {}
    path = exercise.root.cases / SECRET_COUNTS
    try:
        counts = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        counts = {}
    if not isinstance(counts, dict):
        counts = {}
    counts[exercise.name] = len(case_names(secret_folder(exercise)))
    return {path: json.dumps(dict(sorted(counts.items())), indent=1) + "\n"}
