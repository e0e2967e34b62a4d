"""``grade check``: one script graded on an exercise's cases, then fuzzed if asked.

``start_check`` does what happens once (the plan, the cases chosen, the script read before any
run); ``Check.grade`` grades one version of the script, as often as ``--watch`` saves one.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from ..files import refuse_overwriting
from ..judging.errors import GraderError, UsageError
from ..judging.printed import path_text
from ..judging.records import CaseFeedback, Feedback, FuzzOutcome, Report
from ..model.material import Material, material
from ..model.spec import Exercise
from ..running import selection
from ..running.grading import grade
from ..running.plan import Plan
from ..running.submissions import Submission, check_submission
from ..teacher.authoring import add_case
from ..teacher.fuzz import fuzz
from .options import GradingOptions
from .planning import Say, plan_for


@dataclass(frozen=True)
class CheckOptions:
    """Which cases ``grade check`` runs, and what ``--fuzz`` does after them."""

    keywords: tuple[str, ...] = ()  # -k: a case whose name or title holds any of them
    exitfirst: bool = False
    last_failed: bool = False
    fuzz_count: int | None = None
    seed: int = 1
    save_case: str | None = None  # add what --fuzz finds as this case

    def __post_init__(self) -> None:
        if self.save_case is not None and self.fuzz_count is None:
            raise UsageError("--save-case keeps what --fuzz finds: give --fuzz N too")


@dataclass(frozen=True)
class Check:
    """A check set up once: its plan holds the chosen cases."""

    plan: Plan
    first: Submission  # the script as read at the start, before any run: what is graded first
    options: CheckOptions
    selected: str  # "; 3 of 10 cases" when -k or --lf left some out, else ""
    again: str  # the command that finds --fuzz's input again and saves it
    remember: bool  # --lf's memory: not of a --cases folder's cases, which say nothing of these

    def read(self) -> Submission:
        """The script as it is now (--watch: each saved version read once)."""
        return check_submission(self.first.path, self.plan.max_submission_bytes)

    def grade(
        self,
        script: Submission,
        *,
        say: Say,
        on_start: Callable[[str], None] | None = None,
        on_case: Callable[[CaseFeedback], None] | None = None,
        on_cases: Callable[[Feedback], None] | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> Report:
        """Grade ``script``; ``on_cases`` hears the cases' feedback before any fuzzing, whose
        finding is part of the report."""
        removed = script.cells.notice() if script.cells is not None else None
        if removed is not None:  # each version graded says what of it was not graded
            say(removed)
        report = grade(self.plan, script, on_start=on_start, on_case=on_case)
        if self.remember:
            env = os.environ if environ is None else environ
            selection.remember(report, self.first.path, environ=env)
        if on_cases is not None:
            on_cases(report.feedback())
        if self.options.fuzz_count is None:
            return report
        return replace(report, fuzz=self._fuzz(script, say))

    def _fuzz(self, checked: Submission, say: Say) -> FuzzOutcome:
        options = self.options
        assert options.fuzz_count is not None
        found = fuzz(
            self.plan,
            fuzz_material(self.plan.exercise),
            checked,
            count=options.fuzz_count,
            seed=options.seed,
        )
        if found.finding is None:
            return found
        if options.save_case is None:
            return replace(found, save_case=self.again)
        added = add_case(
            self.plan.exercise, options.save_case, found.finding.case.input, runner=self.plan.runner
        )
        saved = path_text((added.folder / options.save_case).absolute())
        say(f"saved the input fuzzing found as {saved}.in and .out")
        return replace(found, save_case=self.again, saved=saved)


def start_check(
    exercise: Exercise,
    submission: Path,
    options: CheckOptions,
    grading: GradingOptions,
    *,
    say: Say,
    report_file: Path | None = None,
    root: Path | None = None,
    verbose: bool = False,
    environ: Mapping[str, str] | None = None,
) -> Check:
    """Set up ``grade check``: the script read once, before any run (that text is graded), the
    plan, and the cases -k and --lf choose."""
    env = os.environ if environ is None else environ
    first = check_submission(submission, exercise.root.config.max_submission_bytes)
    refuse_overwriting([report_file], [first.path], "the submission")
    if options.fuzz_count is not None:
        fuzz_material(exercise)  # before any case runs: a student's install has no reference
    plan = plan_for(
        exercise, grading, say=say, submissions=[submission], verbose=verbose, environ=env
    )
    cases = selection.select(plan.cases, options.keywords)
    if options.last_failed:
        failed = selection.last_failed(exercise.name, submission, environ=env)
        cases, note = selection.only_failed(cases, failed)
        if note:
            say(note)
    selected = "" if len(cases) == len(plan.cases) else f"; {len(cases)} of {len(plan.cases)} cases"
    return Check(
        plan=replace(plan, cases=cases, stop_after_failure=options.exitfirst),
        first=first,
        options=options,
        selected=selected,
        again=_save_case_command(exercise.name, submission, options, grading, root),
        remember=grading.cases_dir is None,
    )


def fuzz_material(exercise: Exercise) -> Material:
    try:
        return material(exercise)
    except GraderError:
        raise UsageError(
            f"--fuzz compares with the reference solution, which is not here "
            f"(reference/{exercise.name}/ is in the course's checkout, not a student's install)"
        ) from None


def _save_case_command(
    exercise: str,
    submission: Path,
    options: CheckOptions,
    grading: GradingOptions,
    root: Path | None,
) -> str:
    """The command that finds the same input again and adds it as a case (a seed finds the same
    input whatever the machine and the number of runs at once)."""
    words = ["grade", exercise, path_text(submission), "--fuzz", str(options.fuzz_count)]
    words += ["--seed", str(options.seed)]
    if root is not None:
        words += ["--root", path_text(root)]
    if grading.timeout_s is not None:
        words += ["--timeout", f"{grading.timeout_s:g}"]
    return shlex.join([*words, "--save-case", options.save_case or f"fuzz-{options.seed}"])
