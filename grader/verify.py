"""``grade verify``: check an exercise like Kattis's verifyproblem does, before students see it.

Each check is a row: the spec parses strictly; cases pair up with their metadata; every input
passes the validator; the reference passes every case, twice, identically, with a time margin;
every known-wrong solution fails as it declares; every ``.out`` is what the reference prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cases import Case
from .errors import ExerciseError, GraderError
from .grading import Runner, exercise_cases, grade
from .material import Material, material, validate
from .report import Report, Verdict
from .resources import Root
from .spec import Exercise, load_exercise

MARGIN = 3.0  # the reference's slowest case should leave this factor under the time limit


class Status(StrEnum):
    OK = "ok"
    WARN = "warn"
    FAIL = "FAIL"


@dataclass(frozen=True)
class Check:
    name: str
    status: Status
    detail: str


@dataclass(frozen=True)
class Verification:
    exercise: str
    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        return all(c.status is not Status.FAIL for c in self.checks)


def verify(name: str, root: Root, *, runner: Runner) -> Verification:
    checks: list[Check] = []

    def done() -> Verification:
        return Verification(name, tuple(checks))

    try:
        exercise = load_exercise(name, root)
    except ExerciseError as exc:
        checks.append(Check("spec", Status.FAIL, str(exc)))
        return done()
    checks.append(Check("spec", Status.OK, f"{exercise.spec_path.name} parses strictly"))
    try:
        cases = exercise_cases(exercise)
    except ExerciseError as exc:
        checks.append(Check("cases", Status.FAIL, str(exc)))
        return done()
    checks.append(Check("cases", Status.OK, f"{len(cases)} cases, every one with its metadata"))
    try:
        teacher = material(exercise)
    except GraderError as exc:
        checks.append(Check("teacher material", Status.FAIL, str(exc)))
        return done()
    checks.append(_inputs(teacher, cases))
    first = grade(exercise, teacher.solution, cases=cases, runner=runner)
    second = grade(exercise, teacher.solution, cases=cases, runner=runner)
    checks.extend(_reference(exercise, cases, first, second))
    checks.append(_wrong(exercise, teacher, cases, runner))
    return done()


def _inputs(teacher: Material, cases: tuple[Case, ...]) -> Check:
    if not teacher.validator.is_file():
        return Check("inputs", Status.WARN, "no validate.py: inputs are not checked")
    rejected = [(c.name, why) for c in cases if (why := validate(teacher, c.input)) is not None]
    if rejected:
        shown = "; ".join(f"{n}: {why}" for n, why in rejected[:3])
        return Check("inputs", Status.FAIL, f"{len(rejected)} rejected by validate.py: {shown}")
    return Check("inputs", Status.OK, f"{len(cases)} inputs pass validate.py")


def _reference(
    exercise: Exercise, cases: tuple[Case, ...], first: Report, second: Report
) -> list[Check]:
    failed = [c for c in first.cases if not c.passed]
    if failed:
        shown = "; ".join(f"{c.name}: {c.verdict} {c.message}" for c in failed[:3])
        passes = Check("reference", Status.FAIL, f"fails {len(failed)} cases: {shown}")
    else:
        passes = Check("reference", Status.OK, f"passes {first.total}/{first.total}, twice")
    differ = [
        a.name for a, b in zip(first.cases, second.cases, strict=True) if a.stdout != b.stdout
    ]
    deterministic = (
        Check("determinism", Status.FAIL, f"output differs between two runs: {', '.join(differ)}")
        if differ
        else Check("determinism", Status.OK, "both runs print the same")
    )
    slowest = max(first.cases + second.cases, key=lambda c: c.time_s)
    limit = exercise.limits.time_s
    ratio = limit / max(slowest.time_s, 1e-3)
    detail = f"slowest {slowest.name} took {slowest.time_s:.2f} s of {limit:g} s ({ratio:.1f}x)"
    margin = Check("time margin", Status.OK if ratio >= MARGIN else Status.WARN, detail)
    by_name = {c.name: c for c in cases}
    stale = [c.name for c in first.cases if c.stdout != by_name[c.name].expected]
    outputs = (
        Check(
            "expected outputs",
            Status.FAIL,
            f"{len(stale)} .out differ from the reference ({', '.join(stale[:5])}); "
            f"run: grade regen {exercise.name}",
        )
        if stale
        else Check("expected outputs", Status.OK, f"{len(cases)} .out match the reference")
    )
    return [passes, deterministic, margin, outputs]


def _wrong(exercise: Exercise, teacher: Material, cases: tuple[Case, ...], runner: Runner) -> Check:
    try:
        wrong = teacher.wrong_solutions()
    except ExerciseError as exc:
        return Check("wrong solutions", Status.FAIL, str(exc))
    if not wrong:
        return Check("wrong solutions", Status.WARN, "none in wrong/: nothing shows the cases bite")
    problems = []
    for solution in wrong:
        report = grade(exercise, solution.path, cases=cases, runner=runner)
        verdicts = {c.verdict for c in report.cases}
        if verdicts == {Verdict.PASSED}:
            problems.append(f"{solution.path.name} passes every case: the cases are too weak")
        elif solution.expect not in verdicts:
            got = ", ".join(sorted(v.value for v in verdicts - {Verdict.PASSED}))
            problems.append(f"{solution.path.name} expected {solution.expect}, got {got}")
    if problems:
        return Check("wrong solutions", Status.FAIL, "; ".join(problems))
    return Check("wrong solutions", Status.OK, f"{len(wrong)} fail as they declare")
