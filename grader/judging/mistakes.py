"""Known mistakes, recognised: what each known-wrong solution prints on each case (by digest),
and the one rule that names a mistake in a report. Loading and writing them (``mistakes.json``
beside the cases) is ``grader.model.known_mistakes``'s.

A mistake is named only when it is the one known mistake that behaves as the student's program
did on every case there is evidence of: the same output, digest for digest, on each case the
program answered wrongly, and a right answer (or no wrong one) on each case it passed. One
case's output alone named the wrong cause: a program that keeps k - 1 tokens prints, on a tie
at the k-th place, what one that cuts strictly above the (k+1)-th does, and was told it did
that; but it fails the cases without a tie too, where that mistake passes.

Where two or more known mistakes fit every case, none is named: the cases cannot tell them
apart, so they cannot tell a third, unknown cause apart either, and the case's hint, which
says what it checks without guessing a cause, speaks instead (docs/students.md).

Evidence is the cases whose details the student may see (a hidden case's output says nothing
in a report, so neither may what it matched), that compiled and ran to an answer: a pass or a
wrong answer. A crash or a time-out has its own words (its traceback, its limit); a case the
table does not know (a case added since ``grade regen``) is no evidence either way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .compare import digest
from .records import SHOWS_DETAILS, CaseOutcome, Diagnosis, Verdict


@dataclass(frozen=True)
class Seen:
    """One case as evidence: passed, or answered wrongly with an output of this digest."""

    case: str
    passed: bool
    output: str = ""  # the digest of what it printed, for a wrong answer


@dataclass(frozen=True)
class Mistakes:
    """Each known mistake's text, and per case what each prints where it answers wrongly."""

    about: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # case -> mistake id -> the digest of its wrong answer there (absent: no wrong answer)
    printed: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: MappingProxyType({}))

    def prints(self, case: str, output: str) -> bool:
        """Whether some known mistake prints exactly ``output`` on ``case``."""
        return digest(output) in self.printed.get(case, {}).values()

    def fits(self, mistake: str, seen: Iterable[Seen]) -> bool:
        """Whether ``mistake`` behaves as the program did on every case of ``seen``."""
        for s in seen:
            printed = self.printed.get(s.case, {}).get(mistake)
            if printed != (None if s.passed else s.output):
                return False
        return True

    def diagnose(self, seen: Iterable[Seen]) -> Diagnosis | None:
        """The one known mistake that fits every case of ``seen`` the table knows, when the
        program failed one of them at least; None where none fits or several do."""
        known = [s for s in seen if s.case in self.printed]
        failed = tuple(s.case for s in known if not s.passed)
        if not failed:
            return None
        fitting = [m for m in sorted(self.about) if self.fits(m, known)]
        if len(fitting) != 1:
            return None
        (mistake,) = fitting
        return Diagnosis(mistake, self.about[mistake], failed)


def evidence(outcomes: Iterable[CaseOutcome]) -> list[Seen]:
    """What a report's outcomes say to ``Mistakes.diagnose``: the cases shown in full that ran
    to an answer."""
    seen = []
    for o in outcomes:
        if not o.compiled or not SHOWS_DETAILS[o.case.visibility]:
            continue
        if o.verdict is Verdict.PASSED:
            seen.append(Seen(o.case.name, True))
        elif o.verdict is Verdict.WRONG_ANSWER:
            seen.append(Seen(o.case.name, False, digest(o.stdout)))
    return seen
