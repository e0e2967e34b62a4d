"""The one grading loop: submissions in, a report each out, every case-run in one pool.

``grade`` (one script, ``grade check``), ``grade_many`` (a teacher's solutions) and
``batch.grade_batch`` (a class) are this loop with other orders: case order for a report
printed as it goes, as-completed for a class. It checks each submission's compile once, owns
the budgets (-x, a time-out ends the rest, seconds per submission) and hands its listeners the
student-visible feedback only.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, as_completed
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from threading import Lock

from ..judging.compare import Comparator
from ..judging.diagnose import explain
from ..judging.errors import GraderError, MachineBusy, SubmissionError
from ..judging.judge import grader_error, judge, not_compiled, skipped
from ..judging.mistakes import evidence
from ..judging.printed import path_text
from ..judging.records import Case, CaseFeedback, CaseOutcome, Course, Report, Verdict
from ..judging.runs import RunResult
from ..judging.timing import BUSY_RETRIES
from ..sandbox.cpus import worker_pool
from .checker_runs import comparator_for
from .compiling import compile_error
from .notebooks import CellMap
from .plan import Plan
from .submissions import Submission, check_submission


@dataclass(frozen=True)
class Graded:
    """One submission's result: its report, or None where it could not be graded (its
    ``problem`` says why)."""

    submission: Submission
    report: Report | None


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during a grading: the runs in progress ended, and ``graded`` holds
    every submission whose cases had all finished before it."""

    def __init__(self, graded: Sequence[Graded]) -> None:
        super().__init__()
        self.graded = tuple(graded)


OnStart = Callable[[Submission, str], None]  # (submission, its compile error or "")
OnCase = Callable[[Submission, CaseFeedback], None]
OnDone = Callable[[Graded], None]


def _stopped_by(name: str) -> str:
    return f"not run: case {name} failed first (-x)"


class Budget:
    """One submission's running account: whether its remaining cases still run (a hung
    submission should cost one time limit, not one per case). Shared by its case-runs' threads."""

    def __init__(self, plan: Plan) -> None:
        self._plan = plan
        self._lock = Lock()
        self._used = 0.0
        self._stop: str | None = None
        self._failed: tuple[int, str] | None = None  # the first failing case, in case order

    def refusal(self, index: int) -> str | None:
        """Why case ``index`` (in case order) should not run, if it should not."""
        with self._lock:
            if self._failed is not None and index > self._failed[0]:
                return _stopped_by(self._failed[1])
            return self._stop

    def record(self, index: int, outcome: CaseOutcome) -> None:
        with self._lock:
            failed = self._plan.stop_after_failure and not outcome.passed
            if failed and (self._failed is None or index < self._failed[0]):
                self._failed = (index, outcome.case.name)
            self._used += outcome.time_s
            limit = self._plan.max_time_per_submission
            if self._plan.skip_after_timeout and outcome.verdict is Verdict.TIMEOUT:
                self._stop = self._stop or f"not run: case {outcome.case.name} timed out"
            if limit is not None and self._used > limit:
                self._stop = self._stop or f"not run: the submission's {limit:g} s were spent"


def run_case(
    plan: Plan,
    script: Path,
    case: Case,
    budget: Budget | None = None,
    index: int = 0,
    text: bytes | None = None,
    comparator: Comparator | None = None,
    cells: CellMap | None = None,
) -> CaseOutcome:
    """One case of one (checked) script, run on ``text`` (what the check read) where given,
    compared by ``comparator`` where given (else the exercise's); a fault of the grader's
    becomes that case's verdict. A notebook's traceback names its cells (``cells``)."""
    refusal = budget.refusal(index) if budget is not None else None
    if refusal is not None:
        return skipped(case, refusal)
    try:
        run = _run_unstarved(plan, [plan.python, str(script)], case, text)
        compare = comparator if comparator is not None else comparator_for(plan, case)
        outcome = judge(case, run, compare, plan.limits)
        if cells is not None:
            outcome = replace(outcome, stderr=cells.relabel(outcome.stderr, str(script)))
        source = "" if text is None else text.decode("utf-8", errors="replace")
        outcome = explain(outcome, script, source, lambda out: plan.mistakes.prints(case.name, out))
    except GraderError as exc:
        outcome = grader_error(case, str(exc))
    except Exception as exc:  # one broken case must not stop the others
        outcome = grader_error(case, f"{type(exc).__name__}: {exc}")
    if budget is not None:
        budget.record(index, outcome)
    return outcome


def _run_unstarved(plan: Plan, argv: list[str], case: Case, text: bytes | None) -> RunResult:
    """The case's run; one the machine starved before it could use its limit is run again,
    one retry at a time (so with fewer runs beside it), ``BUSY_RETRIES`` times before the
    machine's fault is the case's grader error."""
    try:
        return plan.runner(argv, stdin=case.input, limits=plan.limits, source=text)
    except MachineBusy as first:
        busy = first
    with plan.retry_gate:
        for _ in range(BUSY_RETRIES):
            try:
                return plan.runner(argv, stdin=case.input, limits=plan.limits, source=text)
            except MachineBusy as again:
                busy = again
    raise MachineBusy(f"{busy} (run {BUSY_RETRIES + 1} times, the retries one at a time)")


def _after_first_failure(plan: Plan, outcomes: list[CaseOutcome]) -> list[CaseOutcome]:
    """With -x, every case after the first that did not pass is skipped, whether or not a run
    of it had already started: the report reads as if they ran one by one."""
    if not plan.stop_after_failure:
        return outcomes
    first = next((i for i, o in enumerate(outcomes) if not o.passed), None)
    if first is None:
        return outcomes
    why = _stopped_by(outcomes[first].case.name)
    return outcomes[: first + 1] + [skipped(o.case, why) for o in outcomes[first + 1 :]]


def now() -> datetime:
    return datetime.now(timezone.utc)


def report(
    plan: Plan,
    submission: Path,
    outcomes: Sequence[CaseOutcome],
    started: datetime,
    compile_error: str = "",
) -> Report:
    root = plan.exercise.root
    found = plan.mistakes.diagnose(evidence(outcomes))
    if found is not None:  # each case it explains carries it too (a CI line is one case's)
        named = set(found.cases)
        outcomes = [replace(o, diagnosis=found) if o.case.name in named else o for o in outcomes]
    return Report(
        exercise=plan.exercise.name,
        submission=path_text(submission),
        outcomes=tuple(outcomes),
        diagnosis=found,
        started_at=started.isoformat(timespec="seconds"),
        hostname=socket.gethostname(),
        compile_error=compile_error,
        course=Course(root.name, path_text(root.path), root.kind.value),
    )


@dataclass(eq=False)  # hashed by identity: one per submission in flight
class _Flight:
    submission: Submission
    started: datetime
    compiled: Future[str]  # its compile error, or ""
    futures: list[Future[CaseOutcome]]
    left: int

    def complete(self) -> bool:
        return all(f.done() and not f.cancelled() for f in self.futures)

    def compile_error(self) -> str:
        """Once known; "" where the check itself failed (each case then says why)."""
        try:
            return self.compiled.result()
        except Exception:
            return ""


def _compile(plan: Plan, sub: Submission) -> str:
    shown = str(sub.path.resolve())
    error = compile_error(plan.runner, plan.python, shown, sub.text or b"", plan.limits)
    if error and sub.cells is not None:  # "cell 4, line 2", not a line of the script
        return sub.cells.relabel_compile_error(error, shown)
    return error


MAX_EARLY = 2  # a submission's cases run beside its compile check, at most


def early_cases(jobs: int) -> int:
    """How many of a submission's cases may run before its compile check has ended: the
    workers the check leaves free, but few. A script that does not compile (a compile bomb
    that takes the whole time limit) costs each of them a run, and only them: the others
    wait for the check, then run or not."""
    return max(0, min(jobs - 1, MAX_EARLY))


class EarlyPlaces:
    """The places for a submission's cases before its compile check ends."""

    def __init__(self, places: int) -> None:
        self._lock = Lock()
        self._left = places

    def take(self, compiled: Future[str]) -> bool:
        with self._lock:
            if compiled.done() or self._left == 0:
                return False
            self._left -= 1
            return True


def _case_after_compile(
    plan: Plan,
    compiled: Future[str],
    sub: Submission,
    case: Case,
    budget: Budget | None,
    i: int,
    early: EarlyPlaces | None = None,
) -> CaseOutcome:
    """Case ``i``, counted only once the submission is known to compile: run beside the check
    where ``early`` has a place left, else after it (the compile run is queued first, so a
    worker waiting here never waits for a run queued behind it)."""
    ahead = None
    if early is not None and early.take(compiled):
        ahead = run_case(plan, sub.path.resolve(), case, budget, i, sub.text, cells=sub.cells)
    try:
        error = compiled.result()
    except GraderError as exc:
        return grader_error(case, f"the compile check failed: {exc}")
    except Exception as exc:
        return grader_error(case, f"the compile check failed: {type(exc).__name__}: {exc}")
    if error:  # no case counts: the one mistake is said once, above the cases
        return not_compiled(case, error)
    if ahead is not None:
        return ahead
    return run_case(plan, sub.path.resolve(), case, budget, i, sub.text, cells=sub.cells)


def _launch(pool: Executor, plan: Plan, sub: Submission) -> _Flight:
    compiled = pool.submit(_compile, plan, sub)
    early = EarlyPlaces(early_cases(plan.jobs))
    limited = (
        plan.skip_after_timeout
        or plan.stop_after_failure
        or plan.max_time_per_submission is not None
    )
    budget = Budget(plan) if limited else None
    futures: dict[int, Future[CaseOutcome]] = {}
    for i in run_order(plan.cases, by_case=limited):
        case = plan.cases[i]
        futures[i] = pool.submit(_case_after_compile, plan, compiled, sub, case, budget, i, early)
    ordered = [futures[i] for i in range(len(plan.cases))]
    return _Flight(sub, now(), compiled, ordered, len(ordered))


def run_order(cases: Sequence[Case], *, by_case: bool) -> list[int]:
    """The order a submission's cases start in: the longest input first (ties in case order),
    so that the long runs overlap the short ones instead of ending a grading alone on one
    worker; in case order where a rule reads it (a budget, a stop at the first failure: which
    cases run depends on the ones before). Reports keep the case order either way."""
    indices = range(len(cases))
    return list(indices) if by_case else sorted(indices, key=lambda i: -len(cases[i].input))


def grade_submissions(
    plan: Plan,
    submissions: Sequence[Submission],
    *,
    in_case_order: bool = True,
    on_start: OnStart | None = None,
    on_case: OnCase | None = None,
    on_done: OnDone | None = None,
    keep: bool = True,
) -> list[Graded]:
    """Grade every submission with ``plan``, all their case-runs in one pool of ``plan.jobs``.

    In case order, each submission's cases reach ``on_case`` in order, as soon as each and the
    ones before it are known (a report printed as it goes); else a submission reaches
    ``on_done`` as soon as all its cases are (a class, where one slow student must not hold
    the rows of the others). Results keep the order given. On Ctrl-C the runs in progress end
    at once and ``Interrupted`` carries what was fully graded.

    ``keep=False`` (a class, whose rows ``on_done`` takes as they come) keeps nothing once
    ``on_done`` has it: a submission's runs, raw outputs included, are let go as soon as it is
    done, so the grader holds what is in flight, not the class; the list returned is empty.
    """
    results: dict[int, Graded] = {}
    finished: set[int] = set()

    def finish(index: int, flight: _Flight | None, sub: Submission) -> None:
        graded = Graded(sub, None)
        if flight is not None:
            outcomes = _after_first_failure(plan, [f.result() for f in flight.futures])
            made = report(plan, sub.path, outcomes, flight.started, flight.compile_error())
            graded = Graded(sub, made)
        finished.add(index)
        if keep:
            results[index] = graded
        if on_done is not None:
            on_done(graded)

    runs = max(1, len(plan.cases)) * max(1, len(submissions))
    pool = worker_pool(max(1, min(plan.jobs, runs)))
    flights: dict[int, _Flight] = {}
    try:
        for index, sub in enumerate(submissions):
            if sub.problem is not None:
                finish(index, None, sub)
                continue
            flights[index] = _launch(pool, plan, sub)
            if on_start is not None:  # waits for the compile run, not for the cases
                on_start(sub, flights[index].compile_error())
        if in_case_order:
            for index, flight in flights.items():
                done: list[CaseOutcome] = []
                for future in flight.futures:
                    done = _after_first_failure(plan, [*done, future.result()])
                    if on_case is not None:
                        on_case(flight.submission, done[-1].feedback())
                finish(index, flight, flight.submission)
        else:
            owner = {f: (i, flight) for i, flight in flights.items() for f in flight.futures}
            for future in as_completed(owner):
                index, flight = owner.pop(future)  # as_completed lets go of it too
                flight.left -= 1
                if flight.left == 0:
                    finish(index, flight, flight.submission)
                    if not keep:
                        del flights[index]  # its runs' outputs with it
    except KeyboardInterrupt:
        # Runs that ended before Ctrl-C are graded work: keep each submission they complete,
        # even if the loop above had not come to it yet.
        for index, flight in flights.items():
            if index not in finished and flight.complete():
                finish(index, flight, flight.submission)
        for flight in flights.values():
            for future in flight.futures:
                future.cancel()
        plan.cancel()
        raise Interrupted([results[i] for i in sorted(results)]) from None
    except BaseException:
        plan.cancel()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return [results[i] for i in sorted(results)]


def grade_many(
    plan: Plan,
    submissions: Sequence[Path],
    *,
    on_case: Callable[[CaseFeedback], None] | None = None,
) -> list[Report]:
    """Grade several scripts (each checked, or a ``SubmissionError``), in case order; the
    reports keep the order given."""
    checked = [check_submission(s, plan.max_submission_bytes) for s in submissions]
    heard = None if on_case is None else (lambda _sub, case: on_case(case))
    graded = grade_submissions(plan, checked, on_case=heard)
    return [g.report for g in graded if g.report is not None]


def grade(
    plan: Plan,
    submission: Path | Submission,
    *,
    on_start: Callable[[str], None] | None = None,
    on_case: Callable[[CaseFeedback], None] | None = None,
) -> Report:
    """Run one submission on every case of the plan (``plan.jobs`` at once), in case order;
    ``on_start`` hears its compile error ("" for none) before any case, ``on_case`` of each
    case's feedback as soon as it and the ones before it are known."""
    if isinstance(submission, Path):
        sub = check_submission(submission, plan.max_submission_bytes)
    elif submission.problem is not None:
        raise SubmissionError(f"submission {submission.path} {submission.problem}")
    else:
        sub = submission
    started = None if on_start is None else (lambda _sub, error: on_start(error))
    heard = None if on_case is None else (lambda _sub, case: on_case(case))
    (graded,) = grade_submissions(plan, [sub], on_start=started, on_case=heard)
    assert graded.report is not None  # checked: it has no problem
    return graded.report
