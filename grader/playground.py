"""``grade run``: a submission on an input of the student's own, in the grading sandbox, and,
where the reference is at hand (a teacher's copy), the reference's answer beside it."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace

from .expected import reference_output
from .grading import run_case
from .judging.errors import ExitCode, GraderError
from .judging.judge import RIGHT_ANYWAY
from .judging.records import Case, CaseOutcome, Comparison, Verdict
from .material import Material, material, validate
from .plan import Plan
from .render.escape import safe
from .submissions import Submission


@dataclass(frozen=True)
class Tried:
    outcome: CaseOutcome  # the submission's run, judged against the reference when there is one
    reference: str | None  # what the reference printed; None where it is not at hand
    invalid: str | None  # why the input is outside the statement, when a validator says so
    why_alone: str = ""  # why there is no reference output to show, when there is none

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
            lines += ["reference output:", *_indented(self.reference)]
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


def try_input(plan: Plan, submission: Submission, data: bytes) -> Tried:
    """``submission`` (checked) on ``data``, beside the reference's output where it is here."""
    found = _material(plan)
    invalid = validate(found, data) if found is not None else None
    reference = None
    why = "no reference solution here to compare with: run a sample case's input"
    if found is not None and invalid is not None:
        why = "no reference output: the input is outside the statement"
    elif found is not None:
        why = "no reference output: the reference solution fails on this input"
        with contextlib.suppress(GraderError):  # the reference fails on it: show the run alone
            reference = reference_output(plan.exercise, data, runner=plan.runner)
    case = Case(name="your-input", input=data, expected=reference or "", title="your input")
    # without a reference there is nothing to compare with (a checker needs the expected too)
    compare = None if reference is not None else _nothing_to_compare
    script = submission.path.resolve()
    outcome = run_case(plan, script, case, text=submission.text, comparator=compare)
    if reference is None:  # nor anything to have been right about
        outcome = replace(outcome, message=outcome.message.replace(RIGHT_ANYWAY, ""))
    return Tried(outcome, reference, invalid, why)


def _nothing_to_compare(expected: str, got: str) -> Comparison:
    return Comparison(True)
