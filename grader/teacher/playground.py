"""``grade run``: a submission on an input of the student's own, in the grading sandbox, and,
where the reference is at hand (a teacher's copy), the reference's answer beside it."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace

from ..judging.errors import ExitCode, GraderError
from ..judging.judge import RIGHT_ANYWAY
from ..judging.records import Case, CaseOutcome, Comparison, Verdict
from ..model.cases import lf_lines
from ..model.material import Material, material, validate
from ..render.escape import safe
from ..running.grading import run_case
from ..running.plan import Plan
from ..running.submissions import Submission
from .expected import reference_output


@dataclass(frozen=True)
class Tried:
    outcome: CaseOutcome  # the submission's run, judged against the reference when there is one
    reference: str | None  # what the reference printed; None where it is not at hand
    invalid: str | None  # why the input is outside the statement, when a validator says so
    why_alone: str = ""  # why there is no reference output to show, when there is none
    case: str = ""  # the public case whose input this is, whose expected output it is judged on

    @property
    def exit_code(self) -> int:
        if self.outcome.verdict is Verdict.GRADER_ERROR:  # never the student's
            return ExitCode.GRADER_ERROR
        if self.reference is None:
            return ExitCode.OK if self.outcome.exit_code == 0 else ExitCode.FAILED
        return ExitCode.OK if self.outcome.passed else ExitCode.FAILED

    def render(self) -> str:
        o = self.outcome
        lines = ["your output:", *_indented(o.stdout)]
        if o.stderr.strip():
            lines += ["stderr:", *_indented(o.stderr)]
        status = f"exit code {o.exit_code}" if o.exit_code is not None else "killed"
        lines.append(f"({status}, {o.time_s:.2f} s)")
        if self.reference is None:
            if o.message and o.exit_code != 0:
                lines.append(f"{o.verdict.value}: {safe(o.message)}")
            lines.append(f"({self.why_alone})")
        else:
            said = f"expected output (case {safe(self.case)})" if self.case else "reference output"
            lines += [f"{said}:", *_indented(self.reference)]
            lines.append(f"{o.verdict.value}: {safe(o.message)}")
        return "\n".join(lines) + "\n"


def _indented(text: str) -> list[str]:
    if not text:
        return ["  (nothing)"]
    return [f"  {safe(line)}" for line in text.rstrip("\n").split("\n")]


def _material(plan: Plan) -> Material | None:
    try:
        return material(plan.exercise)
    except GraderError:
        return None


def _same_input(one: bytes, other: bytes) -> bool:
    """The same input as a case's, whatever the line ends and the final newline of its file."""

    def norm(data: bytes) -> bytes:
        return lf_lines(data).rstrip(b"\n")

    return norm(one) == norm(other)


def _public_case(plan: Plan, data: bytes) -> Case | None:
    """The case of the plan, shown in full to students, whose input ``data`` is."""
    for case in plan.cases:
        if case.shown_in_practice and _same_input(case.input, data):
            return case
    return None


def try_input(plan: Plan, submission: Submission, data: bytes) -> Tried:
    """``submission`` (checked) on ``data``, judged on the public case whose input it is, else
    beside the reference's output where the reference is here."""
    script = submission.path.resolve()
    public = _public_case(plan, data)
    if public is not None:  # the case's own expected output, and its comparator: as grading
        outcome = run_case(plan, script, public, text=submission.text, cells=submission.cells)
        return Tried(outcome, public.expected, None, case=public.name)
    found = _material(plan)
    invalid = validate(found, data) if found is not None else None
    reference = None
    names = [c.name for c in plan.cases if c.shown_in_practice]
    why = "no reference solution here to compare with" + (
        f"; to compare with a case's expected output, run: grade {plan.exercise.name} "
        f"{safe(str(submission.path))} -k NAME ({', '.join(names[:4])}"
        + (", ..." if len(names) > 4 else "")
        + ")"
        if names
        else ""
    )
    if found is not None and invalid is not None:
        why = "no reference output: the input is outside the statement"
    elif found is not None:
        why = "no reference output: the reference solution fails on this input"
        with contextlib.suppress(GraderError):  # the reference fails on it: show the run alone
            reference = reference_output(plan.exercise, data, runner=plan.runner)
    case = Case(name="your-input", input=data, expected=reference or "", title="your input")
    # without a reference there is nothing to compare with (a checker needs the expected too)
    compare = None if reference is not None else _nothing_to_compare
    outcome = run_case(
        plan, script, case, text=submission.text, comparator=compare, cells=submission.cells
    )
    if reference is None:  # nor anything to have been right about
        outcome = replace(outcome, message=outcome.message.replace(RIGHT_ANYWAY, ""))
    return Tried(outcome, reference, invalid, why)


def _nothing_to_compare(expected: str, got: str) -> Comparison:
    return Comparison(True)
