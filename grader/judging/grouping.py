"""Which failures are the same mistake, and which hints are still to be said: decided here once,
for every report (``render/text.py``, ``render/html.py``) and for the practice page
(``browser.py``), which show each mistake in full once and point back to it after.

Two failures are the same mistake when they fail alike on the same tokens: the tokens
themselves, not their shape ("63.5" for "64" is another bug than "0.5" for "1", and the case of
either may hold the only hint that names it). A repeat still says its case's hint when no case
above said that hint: a report never hides the hint that names the student's bug.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .printed import last_line
from .records import CaseFeedback, Verdict

Signature = tuple[Hashable, ...]


def shape(text: str | None) -> str:
    """A message with its numbers blurred: "after 2 of 4 lines" and "after 3 of 4 lines" say
    the same time-out."""
    return re.sub(r"-?[0-9]+", "0", text or "")


def signature(c: CaseFeedback) -> Signature | None:
    """What makes two failures the same mistake; None for a case that is not compared (a pass,
    a skipped case, a hidden one)."""
    if not c.details_shown or c.verdict in (Verdict.PASSED, Verdict.SKIPPED):
        return None
    if c.comparison is not None and not c.comparison.ok:
        m = c.comparison
        return (c.verdict, m.kind, m.line, m.token, m.expected, m.got)
    if c.verdict is Verdict.RUNTIME_ERROR:
        return (c.verdict, last_line(c.stderr) or c.message)
    return (c.verdict, shape(c.message))


def same_mistake(cases: tuple[CaseFeedback, ...]) -> dict[str, list[str]]:
    """Each failing case that shares its mistake with another: name -> the group's names."""
    by_signature: dict[Signature, list[str]] = {}
    for c in cases:
        found = signature(c)
        if found is not None:
            by_signature.setdefault(found, []).append(c.name)
    return {n: names for names in by_signature.values() if len(names) > 1 for n in names}


@dataclass(frozen=True)
class Placement:
    """How a report shows one failure, given the failures above it."""

    same_as: str | None = None  # the case above that showed this mistake in full
    hint_said: bool = False  # its hint was said above: not again
    known_as: str | None = None  # the case above that named the same known mistake


@dataclass(frozen=True)
class Grouping:
    """What the failures shown so far have said, fed in case order: ``place`` says how the
    next one is shown and returns the grouping with it."""

    first: Mapping[Hashable, str] = field(default_factory=lambda: MappingProxyType({}))
    hints: frozenset[str] = frozenset()
    known: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def place(
        self, name: str, key: Hashable | None, hint: str | None, mistake: str | None = None
    ) -> tuple[Placement, Grouping]:
        """``name``'s placement: ``key`` is its signature (None: never grouped), ``hint`` its
        case's hint as shown, ``mistake`` the id of the known mistake its output is."""
        hints = self.hints | {hint} if hint else self.hints
        said = hint is not None and hint in self.hints
        first = self.first.get(key) if key is not None else None
        if first is not None:
            return Placement(same_as=first, hint_said=said), Grouping(self.first, hints, self.known)
        firsts = self.first if key is None else MappingProxyType({**self.first, key: name})
        known_as, known = None, self.known
        if mistake is not None:
            known_as = self.known.get(mistake)
            if known_as is None:
                known = MappingProxyType({**self.known, mistake: name})
        # a mistake shown in full shows its hint, said before or not: it is that case's
        return Placement(known_as=known_as), Grouping(firsts, hints, known)

    def place_case(self, c: CaseFeedback, *, grouped: bool = True) -> tuple[Placement, Grouping]:
        key = signature(c) if grouped else None
        mistake = c.diagnosis.mistake if c.diagnosis is not None else None
        return self.place(c.name, key, c.hint, mistake)
