"""Expected outputs: run an exercise's reference solution, their only source."""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from pathlib import Path

from ..files import write_atomically
from ..judging.errors import ExerciseError, InternalError
from ..judging.mistakes import Mistakes
from ..judging.printed import decode, last_line
from ..judging.runs import Runner
from ..model.cases import case_files, case_names, public_folder, secret_folder
from ..model.material import material
from ..model.spec import Exercise
from ..running.plan import Plan, prepare
from ..sandbox import Sandbox


def reference_output(exercise: Exercise, data: bytes, *, runner: Runner) -> str:
    """What the reference solution prints for ``data``; ``InternalError`` unless it ends cleanly."""
    solution = material(exercise).solution
    run = runner([sys.executable, str(solution)], stdin=data, limits=exercise.limits)
    if run.exit_code != 0 or run.limit_hit is not None:
        why = run.limit_hit or f"exit code {run.exit_code}, signal {run.signal}"
        raise InternalError(f"reference {solution} failed ({why}): {last_line(decode(run.stderr))}")
    return decode(run.stdout)


@dataclass(frozen=True)
class Stale:
    """An expected output that differs from (or is missing beside) what the reference prints."""

    path: Path  # the .out file
    current: str | None  # None when the .out does not exist yet
    fresh: str


def stale_outputs(exercise: Exercise, *, runner: Runner) -> tuple[Stale, ...]:
    """Every ``.in`` of the exercise (public and secret) whose ``.out`` is missing or not what
    the reference prints."""
    folders = [f for f in (public_folder(exercise), secret_folder(exercise)) if f.is_dir()]
    if not folders:
        raise ExerciseError(public_folder(exercise), "no such case folder")
    found = []
    pairs = [case_files(folder, name) for folder in folders for name in case_names(folder)]
    for source, out in sorted(pairs):
        current = out.read_text(encoding="utf-8") if out.is_file() else None
        fresh = reference_output(exercise, source.read_bytes(), runner=runner)
        if fresh != current:
            found.append(Stale(out, current, fresh))
    return tuple(found)


def regenerate(exercise: Exercise, *, runner: Runner) -> tuple[Stale, ...]:
    """Rewrite every ``.out`` that is missing or stale; returns what it wrote."""
    stale = stale_outputs(exercise, runner=runner)
    for item in stale:  # each whole or not at all: a teacher's Ctrl-C leaves no half a case
        write_atomically(item.path, item.fresh)
    return stale


def mistake_files(exercise: Exercise, plan: Plan) -> dict[Path, str]:
    """What ``mistakes.json`` should hold beside the cases: each known-wrong solution's wrong
    answers on them, as digests (``mistakes.py``)."""
    from ..model import known_mistakes
    from ..running.grading import grade_many

    wrong = material(exercise).wrong_solutions()
    if not wrong:
        return {}
    reports = grade_many(replace(plan, mistakes=Mistakes()), [w.path for w in wrong])
    printed = known_mistakes.wrong_answers(
        {w.path.stem: r for w, r in zip(wrong, reports, strict=True)}
    )
    return known_mistakes.wanted(exercise, printed, {w.path.stem: w.mistake for w in wrong})


def derived_files(exercise: Exercise, sandbox: Sandbox) -> dict[Path, str]:
    """What regen derives from the cases: mistakes.json (what the known-wrong solutions print)
    and secret-cases.json (how many secret cases there are). The plan loads the cases: call it
    after the .out files are written."""
    from ..model.cases import secret_counts_file

    return {**_mistakes_now(exercise, sandbox), **secret_counts_file(exercise)}


def _mistakes_now(exercise: Exercise, sandbox: Sandbox) -> dict[Path, str]:
    return mistake_files(exercise, prepare(exercise, sandbox=sandbox))


def refresh_derived(exercise: Exercise, sandbox: Sandbox) -> list[Path]:
    """Write the derived files again, after the cases changed; returns what it wrote."""
    from ..model import known_mistakes

    return known_mistakes.write(derived_files(exercise, sandbox))


@dataclass(frozen=True)
class StaleDerived:
    """A derived file (mistakes.json, secret-cases.json) the cases no longer give."""

    path: Path
    why: str


def stale_derived(exercise: Exercise, sandbox: Sandbox) -> tuple[StaleDerived, ...]:
    from ..model import known_mistakes
    from ..model.cases import secret_counts_file

    counts = secret_counts_file(exercise)  # read once: it is one of the derived files
    return tuple(
        StaleDerived(
            path,
            "the number of secret cases has changed"
            if path in counts
            else "what the known-wrong solutions print has changed",
        )
        for path in known_mistakes.stale({**_mistakes_now(exercise, sandbox), **counts})
    )
