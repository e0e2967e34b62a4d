"""Known mistakes, recognised: what each known-wrong solution prints on each case (by digest),
and the one rule that names a mistake in a report. Loading and writing them (``mistakes.json``
beside the cases) is ``grader.model.known_mistakes``'s.

A mistake is named only when it is the one known mistake that behaves as the student's program
did on every case there is evidence of: it answers wrongly exactly where the program did, with
the same output digest for digest. One case's output alone named the wrong cause: a program
that keeps k - 1 tokens prints, on a tie at the k-th place, what one that cuts strictly above
the (k+1)-th does, and was told it did that; but it fails the cases without a tie too, where
that mistake passes. So every case counts: a case the program passed, crashed or timed out on,
or that ``-x`` skipped, rules out a mistake that answers it wrongly (with ``-x``, one failure is
too little evidence to tell most mistakes apart, and none is named).

Where two or more known mistakes fit every case, none is named: the cases cannot tell them
apart, so they cannot tell a third, unknown cause apart either, and the case's hint, which
says what it checks without guessing a cause, speaks instead (docs/students.md).

Evidence is the cases whose details the student may see (a hidden case's output says nothing
in a report, so neither may what it matched) of a program that compiled; not a grader error
(the program's result there is not known), nor a case the table does not know (one added since
``grade regen``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType

from .compare import digest
from .records import SHOWS_DETAILS, CaseOutcome, Diagnosis, Verdict


@dataclass(frozen=True)
class Seen:
    """One case as evidence: answered wrongly with an output of this digest, or (None) not
    answered wrongly: passed, crashed, stopped or not run."""

    case: str
    wrong: str | None = None


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
        """Whether ``mistake`` answers wrongly exactly where ``seen`` did, as ``seen`` did."""
        return all(self.printed.get(s.case, {}).get(mistake) == s.wrong for s in seen)

    def diagnose(self, seen: Iterable[Seen]) -> Diagnosis | None:
        """The one known mistake that fits every case of ``seen`` the table knows, when the
        program answered one of them wrongly at least; None where none fits or several do."""
        known = [s for s in seen if s.case in self.printed]
        failed = tuple(s.case for s in known if s.wrong is not None)
        if not failed:
            return None
        fitting = [m for m in sorted(self.about) if self.fits(m, known)]
        if len(fitting) != 1:
            return None
        (mistake,) = fitting
        return Diagnosis(mistake, self.about[mistake], failed)


def witness(
    case: str, verdict: Verdict, *, compiled: bool, shown: bool, wrong: Callable[[], str]
) -> Seen | None:
    """One case as evidence, or None where it is none: a case shown in full, of a program
    that compiled, whose result is the program's (not a grader error). ``wrong`` gives the
    wrong answer's digest (asked only for a wrong answer). The one rule for grade's reports
    and the practice page's."""
    if not compiled or not shown or verdict is Verdict.GRADER_ERROR:
        return None
    return Seen(case, wrong() if verdict is Verdict.WRONG_ANSWER else None)


def evidence(outcomes: Iterable[CaseOutcome]) -> list[Seen]:
    """What a report's outcomes say to ``Mistakes.diagnose``."""
    seen = (
        witness(
            o.case.name,
            o.verdict,
            compiled=o.compiled,
            shown=SHOWS_DETAILS[o.case.visibility],
            wrong=partial(digest, o.stdout),
        )
        for o in outcomes
    )
    return [s for s in seen if s is not None]
