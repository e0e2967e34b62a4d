"""``grade verify``: check an exercise like Kattis's verifyproblem does, before students see it.

Each check is a row: the spec parses strictly; cases pair up with their metadata; every input
passes the validator; the reference passes every case, twice, identically; every accepted
solution passes every case; the time limit is a judges' multiple of the slowest of them; every
known-wrong solution fails as it declares, and a public case (one the student sees in full)
catches it; every ``.out`` is what the reference prints; no title, hint or known mistake is cut
off mid-sentence.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..judging.errors import ExerciseError, GraderError
from ..judging.records import Case, Report, Verdict
from ..model.material import Material, WrongSolution, material, validate_each
from ..model.resources import Root
from ..model.spec import Exercise, load_exercise
from ..running.grading import grade, grade_many
from ..running.plan import Plan, prepare
from ..sandbox import Sandbox
from .catching import Caught, caught_in_public, public_check
from .checks import Check as Check  # re-exported: verify's rows, as tests and callers know them
from .checks import Status as Status
from .clauses import Exercised, exercised, generated_check
from .wording import cut_off

# The time limit, set as judges set it: a multiple of the slowest correct solution's time on
# the slowest case (the maximum over the reference and accepted/, case by case). Under TIGHT a
# slower machine, or a loaded one, times out correct solutions; over LOOSE a solution of the
# wrong complexity may pass. Measured on one machine, at its load: a warning, never a failure.
TIGHT = 2.0
LOOSE = 10.0
JUDGES = 3.0  # the multiple a limit is set to, rounded up to a whole second
LEAST_LIMIT_S = 2  # never below: an interpreter's start and a loaded machine need it


@dataclass(frozen=True)
class Verification:
    exercise: str
    checks: tuple[Check, ...]
    clauses: tuple[Exercised, ...] = ()  # the spec's clauses and their cases (--clauses)
    caught: tuple[Caught, ...] = ()  # each known mistake's public cases (--clauses)

    @property
    def ok(self) -> bool:
        return all(c.status is not Status.FAIL for c in self.checks)

    def table(self) -> str:
        """The exercise's verdict, then a row per check."""
        width = max(len(c.name) for c in self.checks)
        lines = [f"{self.exercise}: {'ok' if self.ok else 'FAILED'}"]
        lines += [f"  {c.status.value:<4}  {c.name:<{width}}  {c.detail}" for c in self.checks]
        return "\n".join(lines) + "\n"


def verify(name: str, root: Root, *, sandbox: Sandbox) -> Verification:
    checks: list[Check] = []
    clauses: list[Exercised] = []
    caught: list[Caught] = []

    def done() -> Verification:
        return Verification(name, tuple(checks), tuple(clauses), tuple(caught))

    try:
        exercise = load_exercise(name, root)
    except ExerciseError as exc:
        checks.append(Check("spec", Status.FAIL, str(exc)))
        return done()
    checks.append(Check("spec", Status.OK, f"{exercise.spec_path.name} parses strictly"))
    try:
        plan = prepare(exercise, sandbox=sandbox)
    except ExerciseError as exc:
        checks.append(Check("cases", Status.FAIL, str(exc)))
        return done()
    cases = plan.cases
    checks.append(Check("cases", Status.OK, f"{len(cases)} cases, every one with its metadata"))
    try:
        teacher = material(exercise)
    except GraderError as exc:
        checks.append(Check("teacher material", Status.FAIL, str(exc)))
        return done()
    checks.append(_inputs(teacher, cases))
    if exercise.clauses:
        try:
            clauses += exercised(exercise, teacher, cases)
            checks.append(_clauses(clauses))
        except ExerciseError as exc:
            checks.append(Check("clauses", Status.FAIL, str(exc)))
        else:
            checks += generated_check(exercise, teacher)
    accepted = teacher.accepted_solutions()
    try:
        wrong: tuple[WrongSolution, ...] = teacher.wrong_solutions()
        unreadable = None
    except ExerciseError as exc:
        wrong, unreadable = (), exc
    # every run of every script in one pool; the reference twice, for determinism, the second
    # time in fresh interpreters: forks of one server share their memory layout, which would
    # hide a reference whose output depends on it (ids, set order of objects)
    scripts = [teacher.solution, *accepted, *(w.path for w in wrong)]
    first, *others = _again_alone(plan, scripts, grade_many(plan, scripts))
    fresh = plan.sandbox.fresh() if plan.sandbox is not None else None
    again = replace(plan, runner=fresh.run, sandbox=fresh) if fresh is not None else plan
    second = grade(again, teacher.solution)
    checks.extend(_reference(plan, first, second))
    timed = [(teacher.solution, first), (teacher.solution, second)]
    timed += zip(accepted, others[: len(accepted)], strict=True)
    checks.append(_accepted(accepted, others[: len(accepted)]))
    checks.append(_time_margin(exercise.limits.time_s, timed))
    if unreadable is not None:
        checks.append(Check("wrong solutions", Status.FAIL, str(unreadable)))
    else:
        checks.append(_wrong(wrong, others[len(accepted) :]))
        caught += caught_in_public(wrong, others[len(accepted) :])
        checks.append(public_check(caught))
        checks.append(_mistakes(exercise, wrong, others[len(accepted) :]))
    checks.append(_wording(cases, wrong))
    return done()


def _mistakes(
    exercise: Exercise, wrong: Sequence[WrongSolution], reports: Sequence[Report]
) -> Check:
    """Whether mistakes.json (what diagnosis compares a student's output with) is current."""
    from ..model import known_mistakes
    from ..model.cases import secret_counts_file

    if not wrong:
        return Check("known mistakes", Status.WARN, "no known-wrong solution to recognise")
    printed = known_mistakes.wrong_answers(
        {w.path.stem: r for w, r in zip(wrong, reports, strict=True)}
    )
    files = known_mistakes.wanted(exercise, printed, {w.path.stem: w.mistake for w in wrong})
    stale = known_mistakes.stale({**files, **secret_counts_file(exercise)})
    if stale:
        return Check(  # a nicety for students: never what makes an exercise fail
            "known mistakes",
            Status.WARN,
            f"{stale[0].name} is stale beside {stale[0].parent.name}/ cases; run: grade regen "
            f"{exercise.name}",
        )
    return Check("known mistakes", Status.OK, f"{len(files)} mistakes.json current")


def _wording(cases: Sequence[Case], wrong: Sequence[WrongSolution]) -> Check:
    """Every title, hint and known mistake (what a student reads instead of a hint) reads
    whole: none cut off mid-sentence (the rule is ``wording.cut_off``)."""
    texts = [(f"{c.name}'s title", c.title, False) for c in cases]
    texts += [(f"{c.name}'s hint", c.hint, True) for c in cases if c.hint is not None]
    texts += [(f"{w.path.name}'s mistake", w.mistake, True) for w in wrong]
    cut = [
        f"{where} {why}: {clip_quoted(text)}"
        for where, text, sentence in texts
        if (why := cut_off(text, sentence=sentence)) is not None
    ]
    if cut:
        return Check("wording", Status.FAIL, f"{len(cut)} cut off: {'; '.join(cut[:3])}")
    return Check("wording", Status.OK, f"{len(texts)} titles, hints and mistakes read whole")


def clip_quoted(text: str, width: int = 60) -> str:
    """``text`` quoted, its end kept (where a cut shows) when it is longer than ``width``."""
    return repr(text if len(text) <= width else "..." + text[-(width - 3) :])


def _clauses(found: Sequence[Exercised]) -> Check:
    """Every clause of the contract is exercised by a case (a warning: cases are the teacher's)."""
    bare = [item.clause.text for item in found if not item.cases]
    if bare:
        shown = "; ".join(repr(text) for text in bare[:3])
        return Check("clauses", Status.WARN, f"{len(bare)} of {len(found)} with no case: {shown}")
    public = sum(1 for item in found if any(c.shown_in_practice for c in item.cases))
    return Check("clauses", Status.OK, f"{len(found)} each with a case ({public} a public one)")


def _inputs(teacher: Material, cases: tuple[Case, ...]) -> Check:
    if not teacher.validator.is_file():
        return Check("inputs", Status.WARN, "no validate.py: inputs are not checked")
    found = validate_each(teacher, [c.input for c in cases])
    rejected = [(c.name, why) for c, why in zip(cases, found, strict=True) if why is not None]
    if rejected:
        shown = "; ".join(f"{n}: {why}" for n, why in rejected[:3])
        return Check("inputs", Status.FAIL, f"{len(rejected)} rejected by validate.py: {shown}")
    return Check("inputs", Status.OK, f"{len(cases)} inputs pass validate.py")


def _reference(plan: Plan, first: Report, second: Report) -> list[Check]:
    exercise = plan.exercise
    failed = [c for c in first.outcomes if not c.passed]
    if failed:
        shown = "; ".join(f"{c.case.name}: {c.verdict} {c.message}" for c in failed[:3])
        passes = Check("reference", Status.FAIL, f"fails {len(failed)} cases: {shown}")
    else:
        passes = Check("reference", Status.OK, f"passes {first.total}/{first.total}, twice")
    differ = [
        a.case.name
        for a, b in zip(first.outcomes, second.outcomes, strict=True)
        if a.stdout != b.stdout
    ]
    deterministic = (
        Check("determinism", Status.FAIL, f"output differs between two runs: {', '.join(differ)}")
        if differ
        else Check("determinism", Status.OK, "both runs print the same")
    )
    stale = [c.case.name for c in first.outcomes if c.stdout != c.case.expected]
    outputs = (
        Check(
            "expected outputs",
            Status.FAIL,
            f"{len(stale)} .out differ from the reference ({', '.join(stale[:5])}); "
            f"run: grade regen {exercise.name}",
        )
        if stale
        else Check("expected outputs", Status.OK, f"{first.total} .out match the reference")
    )
    return [passes, deterministic, outputs]


def judges_limit_s(slowest_s: float) -> int:
    """The limit judges would set: ``JUDGES`` times the slowest correct time, in whole seconds
    rounded up, never below ``LEAST_LIMIT_S``."""
    return max(LEAST_LIMIT_S, math.ceil(round(JUDGES * slowest_s, 6)))


def margin_status(limit_s: float, slowest_s: float) -> tuple[Status, str]:
    """Whether ``limit_s`` suits a slowest correct time of ``slowest_s``, and why not. A limit
    at the floor is never too loose: a fast exercise cannot have a lower one."""
    if limit_s < TIGHT * slowest_s:
        why = f"under {TIGHT:g}x: a slower or busier machine times out correct solutions"
    elif limit_s > max(LOOSE * slowest_s, LEAST_LIMIT_S):
        why = f"over {LOOSE:g}x: a solution of the wrong complexity may pass"
    else:
        return Status.OK, ""
    return Status.WARN, f"; {why} (judges' {JUDGES:g}x: time_s: {judges_limit_s(slowest_s)})"


def _time_margin(limit_s: float, timed: Sequence[tuple[Path, Report]]) -> Check:
    """The slowest correct solution's time on its slowest case, next to the limit: its CPU
    time, which others' load on this machine leaves be (the wall clock where it is unknown)."""
    runs = [
        (c.time_s if c.cpu_s is None else c.cpu_s, path.name, c.case.name)
        for path, report in timed
        for c in report.outcomes
    ]
    if not runs:
        return Check("time margin", Status.WARN, "no case to time")
    time_s, script, case = max(runs)
    ratio = limit_s / max(time_s, 1e-3)
    status, why = margin_status(limit_s, time_s)
    detail = (
        f"slowest accepted: {script} on {case} took {time_s:.2f} s of {limit_s:g} s "
        f"({ratio:.1f}x){why}"
    )
    return Check("time margin", status, detail)


def _accepted(accepted: Sequence[Path], reports: Sequence[Report]) -> Check:
    """Every correct way of writing it passes: a case that fails one is unfair, not strong."""
    if not accepted:
        return Check("accepted solutions", Status.WARN, "none in accepted/: fairness unchecked")
    problems = [
        f"{path.name} fails {outcome.case.name}: {outcome.message}"
        for path, report in zip(accepted, reports, strict=True)
        for outcome in report.outcomes
        if not outcome.passed
    ]
    if problems:
        return Check("accepted solutions", Status.FAIL, "; ".join(problems[:3]))
    return Check("accepted solutions", Status.OK, f"{len(accepted)} pass every case")


def _again_alone(plan: Plan, scripts: Sequence[Path], reports: Sequence[Report]) -> list[Report]:
    """A grader error is the machine's, never a script's verdict: a script that got one (most
    often a machine too busy to give a run its time: a declared time-out cut short) is graded
    again, one run at a time, as a judge re-runs what the system failed."""
    alone = replace(plan, jobs=1)
    return [
        grade(alone, script)
        if any(o.verdict is Verdict.GRADER_ERROR for o in report.outcomes)
        else report
        for script, report in zip(scripts, reports, strict=True)
    ]


def _wrong(wrong: Sequence[WrongSolution], reports: Sequence[Report]) -> Check:
    if not wrong:
        return Check("wrong solutions", Status.WARN, "none in wrong/: nothing shows the cases bite")
    problems = []
    for solution, report in zip(wrong, reports, strict=True):
        verdicts = {c.verdict for c in report.outcomes}
        if verdicts == {Verdict.PASSED}:
            problems.append(
                f"{solution.path.name} passes every case: the cases are too weak "
                f"(its mistake: {solution.mistake})"
            )
        elif solution.expect not in verdicts:
            got = ", ".join(sorted(v.value for v in verdicts - {Verdict.PASSED}))
            problems.append(f"{solution.path.name} expected {solution.expect}, got {got}")
    if problems:
        return Check("wrong solutions", Status.FAIL, "; ".join(problems))
    return Check("wrong solutions", Status.OK, f"{len(wrong)} fail as they declare")
