"""The records that flow between the grader's modules. Standard library only: no YAML, no sandbox.

``Case`` (what to run) → ``CaseOutcome`` (what happened, everything the grader knows) → ``Report``
(a submission's outcomes) → ``Feedback`` (what may be shown to the student). ``Report.feedback()``
is the one place that applies visibility: renderers and gradebooks only ever see ``Feedback``, so
a renderer cannot leak what it never receives.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Protocol

from ._compat import StrEnum
from .errors import ExitCode
from .printed import LINE_MOST, MESSAGE_MOST, TEXT_MOST, clip, decode


class Verdict(StrEnum):
    PASSED = "passed"
    WRONG_ANSWER = "wrong_answer"
    RUNTIME_ERROR = "runtime_error"
    TIMEOUT = "timeout"
    MEMORY_LIMIT = "memory_limit"
    OUTPUT_LIMIT = "output_limit"
    GRADER_ERROR = "grader_error"  # the grader, spec or reference is at fault, never the student
    SKIPPED = "skipped"  # not run (an earlier case timed out, the time budget was spent): failed


class Visibility(StrEnum):
    VISIBLE = "visible"
    HIDDEN = "hidden"
    AFTER_DUE_DATE = "after_due_date"


# What a student's report shows of a case's input, output, message and hint, by visibility.
# Title, verdict, time and points are always shown. A row's reason is its comment.
SHOWS_DETAILS: Mapping[Visibility, bool] = MappingProxyType(
    {
        Visibility.VISIBLE: True,  # the case teaches: show everything
        Visibility.HIDDEN: False,  # the case checks: showing its data would give the answer away
        # Gradescope reveals these itself after the deadline; every other report is the student's
        Visibility.AFTER_DUE_DATE: False,
    }
)
HIDDEN_MESSAGE = "hidden case"
# The verdicts a case's hint ("this case checks: ...") is about: the program ran on the case and
# got it wrong, crashed on it or was stopped on it (a zero group crashes a division, a blank
# line an unguarded parse). Not a compile error (one mistake, said once above the cases), nor a
# limit the hint does not explain, nor the grader's fault.
HINTED: frozenset[Verdict] = frozenset(
    {Verdict.WRONG_ANSWER, Verdict.RUNTIME_ERROR, Verdict.TIMEOUT}
)


class Mismatch(StrEnum):
    TOKEN = "token"
    MISSING_TOKEN = "missing_token"
    EXTRA_TOKEN = "extra_token"
    MISSING_LINE = "missing_line"
    EXTRA_LINE = "extra_line"
    LINE = "line"  # whole-line comparators do not look at tokens
    CHECKER = "checker"  # a teacher's checker program rejected the output


@dataclass(frozen=True)
class Comparison:
    """The verdict of one comparison and, when it failed, where the output first differs."""

    ok: bool
    kind: Mismatch | None = None
    line: int | None = None  # 1-based
    token: int | None = None  # 1-based
    expected: str | None = None  # the expected token (or line)
    got: str | None = None
    expected_line: str | None = None
    got_line: str | None = None
    note: str = ""

    @property
    def message(self) -> str:
        if self.ok:
            return "output matches"
        at = f"line {self.line}" + (f", token {self.token}" if self.token else "")
        text = {
            Mismatch.TOKEN: f"{at}: expected {self.expected!r}, got {self.got!r}",
            Mismatch.LINE: f"{at}: expected {self.expected!r}, got {self.got!r}",
            Mismatch.MISSING_TOKEN: f"{at}: missing token, expected {self.expected!r}",
            Mismatch.EXTRA_TOKEN: f"{at}: extra token {self.got!r}",
            Mismatch.MISSING_LINE: f"{at}: missing line, expected {self.expected!r}",
            Mismatch.EXTRA_LINE: f"{at}: extra line {self.got!r}",
            Mismatch.CHECKER: "the checker rejected the output",
        }[self.kind or Mismatch.LINE]
        if self.kind is Mismatch.CHECKER and self.note:
            return f"{text}: {self.note}"
        return f"{text} ({self.note})" if self.note else text


@dataclass(frozen=True)
class Diagnosis:
    """The known mistake a submission's outputs are: a known-wrong solution prints exactly what
    it printed on each failing case, and passes where it passed (``mistakes.py`` decides)."""

    mistake: str  # its id: the known-wrong solution's file name, e.g. round_half_up
    hint: str  # what the mistake is, e.g. "rounds half away from zero"
    cases: tuple[str, ...] = ()  # the failing cases it explains, in case order

    @property
    def message(self) -> str:
        return f"your output is exactly that of a program that {self.hint.rstrip('.')}"

    @property
    def summary(self) -> str:
        """The message with the cases it is about: what a report says once."""
        on = ", ".join(self.cases)
        return f"{self.message} (on {on})" if on else self.message


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
    secret: bool = False  # from secret/ (or a --cases folder): never shipped to students

    @property
    def shown_in_practice(self) -> bool:
        """A student has this case before submitting and sees it whole when it fails: what
        verify, ``--clauses`` and ``grade try`` call a public case. The folder decides: the
        loader refuses a public case whose visibility is not visible, and a secret one whose
        visibility is (``model/cases.py``); a report's own rule is ``SHOWS_DETAILS``."""
        return not self.secret


@dataclass(frozen=True)
class CaseOutcome:
    """Everything the grader knows of one case's run, hidden data included: never rendered as is."""

    case: Case
    verdict: Verdict
    message: str  # one line: why this verdict
    time_s: float
    exit_code: int | None = None  # None when killed by a signal or never started
    stdout: str = ""
    stderr: str = ""
    comparison: Comparison | None = None
    advice: str | None = None  # a recognised mistake's targeted message (diagnose.py)
    diagnosis: Diagnosis | None = None  # the report's, on each case it explains (mistakes.py)
    compiled: bool = True  # False: the script does not compile, and this case never ran
    # the run's CPU time where known: unlike time_s (the wall clock), others' load leaves it be,
    # so verify's time margin reads it
    cpu_s: float | None = None
    # the most memory the run held at once, in bytes, where its runner measured it; and the
    # limit it ran under, which reports show it as a share of
    peak_bytes: int | None = None
    memory_mb: int | None = None

    @property
    def passed(self) -> bool:
        return self.verdict is Verdict.PASSED

    @property
    def max_points(self) -> float:
        return self.case.points

    @property
    def points(self) -> float:
        return self.case.points if self.passed else 0.0

    def feedback(self) -> CaseFeedback:
        case = self.case
        shown = SHOWS_DETAILS[case.visibility]
        return CaseFeedback(
            name=case.name,
            title=case.title,
            verdict=self.verdict,
            # The message quotes expected and actual tokens, which a hidden case must not reveal.
            message=clip(self.message, MESSAGE_MOST) if shown or self.passed else HIDDEN_MESSAGE,
            # nor how long it took: a script can spell several bits of the input in its time
            time_s=self.time_s if shown else 0.0,
            # A script can write a byte of the hidden input into its exit code: not shown either.
            exit_code=self.exit_code if shown else None,
            points=self.points,
            max_points=self.max_points,
            visibility=case.visibility,
            hint=case.hint if shown and self.compiled and self.verdict in HINTED else None,
            # at most so much of each: a report of one submission stays well under 1 MB
            input=clip(decode(case.input), TEXT_MOST) if shown else "",
            stdout=clip(self.stdout, TEXT_MOST) if shown else "",
            stderr=clip(self.stderr, TEXT_MOST) if shown else "",
            comparison=_clipped(self.comparison) if shown else None,
            advice=self.advice if shown else None,
            expected=clip(case.expected, TEXT_MOST) if shown else "",
            diagnosis=self.diagnosis if shown else None,
            # nor how much memory it took, for the same reason as its time
            peak_bytes=self.peak_bytes if shown else None,
            memory_mb=self.memory_mb,
        )


def _clipped(found: Comparison | None) -> Comparison | None:
    """A mismatch's lines and tokens at most ``LINE_MOST`` each (one printed line can be a
    megabyte; the caret of a line so long lands where it can)."""
    if found is None:
        return None

    def cut(text: str | None) -> str | None:
        return None if text is None else clip(text, LINE_MOST)

    return replace(
        found,
        expected=cut(found.expected),
        got=cut(found.got),
        expected_line=cut(found.expected_line),
        got_line=cut(found.got_line),
        note=clip(found.note, MESSAGE_MOST),
    )


@dataclass(frozen=True)
class CaseFeedback:
    """One case as the student may see it: a hidden case has no input, output, hint or message."""

    name: str
    title: str
    verdict: Verdict
    message: str
    time_s: float
    exit_code: int | None
    points: float
    max_points: float
    visibility: Visibility = Visibility.VISIBLE
    hint: str | None = None
    input: str = ""
    stdout: str = ""
    stderr: str = ""
    comparison: Comparison | None = None
    advice: str | None = None
    expected: str = ""  # the whole expected output, for --diff
    diagnosis: Diagnosis | None = None
    peak_bytes: int | None = None  # a hidden case's is not shown, as its time is not
    memory_mb: int | None = None  # the memory limit it ran under

    @property
    def passed(self) -> bool:
        return self.verdict is Verdict.PASSED

    @property
    def details_shown(self) -> bool:
        return SHOWS_DETAILS[self.visibility]

    @property
    def time_text(self) -> str:
        """Its time as reports show it; a hidden case's is not shown (its verdict says
        whether it kept to the limit, and nothing finer)."""
        return f"{self.time_s:.2f} s" if self.details_shown else "-"

    @property
    def peak_mb(self) -> float | None:
        """Its peak memory in MB (2^20 bytes), to a tenth; None where not shown or not known."""
        return None if self.peak_bytes is None else round(self.peak_bytes / (1 << 20), 1)

    @property
    def memory_share(self) -> float | None:
        """Its peak memory as a share of its memory limit (1.0: all of it); None where either
        is not known."""
        peak = self.peak_mb
        if peak is None or not self.memory_mb:
            return None
        # of the peak as the reports write it (a tenth of a MB), so that a gradebook read back
        # gives the share it showed
        return round(peak / self.memory_mb, 3)

    @property
    def memory_text(self) -> str:
        """Its peak memory as reports show it: ``212 MB (41% of 512 MB)``, or ``-``."""
        if self.peak_bytes is None:
            return "-"
        used = f"{self.peak_bytes / (1 << 20):.0f} MB"
        share = self.memory_share
        return used if share is None else f"{used} ({share:.0%} of {self.memory_mb} MB)"


class _Scored(Protocol):
    @property
    def verdict(self) -> Verdict: ...
    @property
    def points(self) -> float: ...
    @property
    def max_points(self) -> float: ...
    @property
    def time_s(self) -> float: ...


class _Tally:
    """Totals and the exit policy, shared by ``Report`` and ``Feedback``."""

    @property
    def _scored(self) -> tuple[_Scored, ...]:
        raise NotImplementedError

    @property
    def passed(self) -> int:
        return sum(c.verdict is Verdict.PASSED for c in self._scored)

    @property
    def total(self) -> int:
        return len(self._scored)

    @property
    def points(self) -> float:
        return sum(c.points for c in self._scored)

    @property
    def max_points(self) -> float:
        return sum(c.max_points for c in self._scored)

    @property
    def score(self) -> float:
        """Fraction of the points earned, 0 to 1 (cases of 0 points count for nothing)."""
        if self.max_points > 0:
            return self.points / self.max_points
        return 1.0 if self.passed == self.total else 0.0

    @property
    def judged(self) -> bool:
        """False where the grader failed on a case: the student's result is not known."""
        return not any(c.verdict is Verdict.GRADER_ERROR for c in self._scored)

    @property
    def grade(self) -> float | None:
        """``score`` where every case was judged, else None: every report and gradebook format
        reads this one rule, so a run the grader never judged is never written as a zero."""
        return self.score if self.judged else None

    @property
    def time_s(self) -> float:
        return round(sum(c.time_s for c in self._scored), 3)

    @property
    def _fuzz_found(self) -> bool:
        return False

    @property
    def exit_code(self) -> ExitCode:
        # A grader error outranks a failure: the student's result is not known.
        if not self.judged:
            return ExitCode.GRADER_ERROR
        failed = self.passed != self.total or self._fuzz_found  # a disagreement is a failure
        return ExitCode.FAILED if failed else ExitCode.OK


@dataclass(frozen=True)
class FuzzOutcome:
    """What ``--fuzz`` did: ``count`` generated inputs against the reference at most, and the
    first disagreement shrunk; a case of no points, so the score is the cases' alone."""

    seed: int
    count: int  # the inputs asked for
    tried: int  # generated inputs run: up to the first disagreement, else all of them
    finding: CaseOutcome | None = None  # the submission's run on the shrunk input; None: agreed
    shrink_runs: int = 0  # runs made while shrinking
    save_case: str = ""  # the command that adds the shrunk input as a case
    saved: str = ""  # where --save-case wrote it (NAME.in, .out beside it); "" when not asked

    def feedback(self) -> FuzzFeedback:
        finding = self.finding
        return FuzzFeedback(
            seed=self.seed,
            count=self.count,
            tried=self.tried,
            # a generated input, no case's: visible (the Case says so), clipped like any case
            finding=None if finding is None else finding.feedback(),
            shrink_runs=self.shrink_runs,
            save_case=self.save_case,
            saved=self.saved,
        )


@dataclass(frozen=True)
class FuzzFeedback:
    """``FuzzOutcome`` as reports show it."""

    seed: int
    count: int
    tried: int
    finding: CaseFeedback | None = None
    shrink_runs: int = 0
    save_case: str = ""
    saved: str = ""

    @property
    def passed(self) -> bool:
        return self.finding is None


@dataclass(frozen=True)
class Course:
    """Which course graded a submission: a report says so, so that a submission graded by a
    course of its own repository's making shows it."""

    name: str
    root: str  # its folder
    found: str  # how: explicit (--root), course (grade.toml upward), checkout or bundled


@dataclass(frozen=True)
class Report(_Tally):
    exercise: str
    submission: str
    outcomes: tuple[CaseOutcome, ...]
    started_at: str = ""  # ISO 8601 to the second, with its zone: 2026-11-29T10:00:00+00:00
    hostname: str = ""
    compile_error: str = ""  # as Python prints it, when the script does not compile: none ran
    course: Course | None = None
    fuzz: FuzzOutcome | None = None  # None: --fuzz was not asked for
    # the known mistake the outputs are, decided once over the cases a student sees in full
    diagnosis: Diagnosis | None = None

    @property
    def _scored(self) -> tuple[_Scored, ...]:
        return self.outcomes

    @property
    def _fuzz_found(self) -> bool:
        return self.fuzz is not None and self.fuzz.finding is not None

    def feedback(self) -> Feedback:
        """The report as the student may see it: visibility applied, once, here."""
        cases = tuple(o.feedback() for o in self.outcomes)
        return Feedback(
            exercise=self.exercise,
            submission=self.submission,
            cases=cases,
            started_at=self.started_at,
            hostname=self.hostname,
            # the student's own text, as every case's output is: by the one rule
            compile_error=clip(self.compile_error, TEXT_MOST),
            course=self.course,
            fuzz=None if self.fuzz is None else self.fuzz.feedback(),
            diagnosis=self.diagnosis,  # its evidence is the cases shown in full only
        )


@dataclass(frozen=True)
class Feedback(_Tally):
    """What every renderer and gradebook receives."""

    exercise: str
    submission: str
    cases: tuple[CaseFeedback, ...]
    started_at: str = ""
    hostname: str = ""
    compile_error: str = ""  # the script's own code: always shown
    course: Course | None = None
    fuzz: FuzzFeedback | None = None
    diagnosis: Diagnosis | None = None  # said once per report; each case it explains has it too

    @property
    def _scored(self) -> tuple[_Scored, ...]:
        return self.cases

    @property
    def _fuzz_found(self) -> bool:
        return self.fuzz is not None and not self.fuzz.passed

    @property
    def not_graded(self) -> str:
        """Why the submission has no score: the cases the grader failed on and what it said
        ("" where every case was judged)."""
        faults = [c for c in self.cases if c.verdict is Verdict.GRADER_ERROR]
        if not faults:
            return ""
        said = next((c.message for c in faults if c.message), "")
        names = ", ".join(c.name for c in faults[:3]) + (", ..." if len(faults) > 3 else "")
        why = f": {said}" if said else ""
        return f"not graded: grader error on {len(faults)} of {self.total} cases ({names}){why}"
