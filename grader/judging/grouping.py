"""Which failures are the same mistake, and which hints are still to be said: decided here once,
for every report (``render/text.py``, ``render/html.py``) and for the practice page
(``browser.py``), which show each mistake in full once and point back to it after.

Two wrong answers are the same mistake when they first differ at the same place (line and
token) in the same way: the same kind of difference ("1.5" for "1.50" is a number written
otherwise, "63.5" for "64" another number, "Hello" for "hello" a letter's case), or the same
number of lines missing or extra, or a checker's same reason (the output it quotes blurred).
The tokens themselves differ from case to case: one formatting bug was printed in full 3-4 times.
Two crashes are the same mistake when they raise the same exception at the same line of the
program (their messages echo each case's own input); two time-outs, when their messages say
the same with the numbers blurred.

A repeat still says its case's hint when no case above said that hint (a report never hides
the hint that names the student's bug), except under a crash or a time-out that repeats one
above: the same crash on every case is no case's point, and its hint is unrelated to it.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .compare import normalise
from .printed import last_line
from .records import CaseFeedback, Mismatch, Verdict

Signature = tuple[Hashable, ...]

_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_FRAME = re.compile(r'^\s*File "(.*)", line ([0-9]+)', re.MULTILINE)
_EXCEPTION = re.compile(r"^([A-Za-z_][\w.]*)(?::|$)")
# Verdicts whose hint a repeat does not say: the case did not get as far as its point
_UNHINTED_REPEATS = frozenset({Verdict.RUNTIME_ERROR.value, Verdict.TIMEOUT.value})


def shape(text: str | None) -> str:
    """A message with its numbers blurred: "after 2 of 4 lines" and "after 3 of 4 lines" say
    the same time-out."""
    return re.sub(r"-?[0-9]+", "0", text or "")


def difference(expected: str | None, got: str | None) -> str:
    """How a printed token (or line) differs from the expected one, in kind."""
    want, have = expected or "", got or ""
    numbers = [_NUMBER.fullmatch(t) is not None for t in (want, have)]
    if all(numbers):
        return "written otherwise" if float(want) == float(have) else "another number"
    if any(numbers):
        return "a number for a word" if numbers[1] else "a word for a number"
    if want.lower() == have.lower():
        return "letter case"
    if want.split() == have.split():
        return "spacing"
    return "another word"


def _checker_reason(note: str, stdout: str) -> str:
    """A checker's reason with the lines of the output it quotes, and its numbers, blurred:
    "the 2.5 is higher than dog 1.25 on line 1" and "Paris 7.5 is higher than located 4.125 on
    line 1" are one complaint (a reason quoting single tokens stays apart: the safe side)."""
    quoted = {line.strip() for line in normalise(stdout) if len(line.strip()) > 1}
    for line in sorted(quoted, key=len, reverse=True):
        note = note.replace(line, "…")
    return shape(note)


def _crash(stderr: str, message: str) -> Signature:
    """The exception's type and the line that raised it (the last frame's file, by its name
    alone: each run has a folder of its own)."""
    said = last_line(stderr)
    found = _EXCEPTION.match(said)
    frames = _FRAME.findall(stderr)
    if found is None or not frames:
        return (shape(said or message),)
    file, line = frames[-1]
    return (found.group(1), re.split(r"[/\\]", file)[-1], line)


def signature(c: CaseFeedback) -> Signature | None:
    """What makes two failures the same mistake; None for a case that is not compared (a pass,
    a skipped case, a hidden one)."""
    if not c.details_shown or c.verdict in (Verdict.PASSED, Verdict.SKIPPED):
        return None
    m = c.comparison
    if m is not None and not m.ok:
        if m.kind is Mismatch.CHECKER:
            return (c.verdict, m.kind, _checker_reason(m.note, c.stdout))
        if m.kind in (Mismatch.MISSING_LINE, Mismatch.EXTRA_LINE):
            printed = len(normalise(c.stdout))
            lines = "none printed" if not printed else abs(len(normalise(c.expected)) - printed)
            return (c.verdict, m.kind, lines)
        if m.kind in (Mismatch.TOKEN, Mismatch.LINE):
            return (c.verdict, m.kind, m.line, m.token, difference(m.expected, m.got))
        return (c.verdict, m.kind, m.line, m.token)
    if c.verdict is Verdict.RUNTIME_ERROR:
        return (c.verdict, *_crash(c.stderr, c.message))
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
    hint_said: bool = False  # its hint is not to be said: said above, or beside the point


@dataclass(frozen=True)
class Grouping:
    """What the failures shown so far have said, fed in case order: ``place`` says how the
    next one is shown and returns the grouping with it."""

    first: Mapping[Hashable, str] = field(default_factory=lambda: MappingProxyType({}))
    hints: frozenset[str] = frozenset()

    def place(
        self, name: str, key: Hashable | None, hint: str | None, verdict: str = ""
    ) -> tuple[Placement, Grouping]:
        """``name``'s placement: ``key`` is its signature (None: never grouped), ``hint`` its
        case's hint as shown, ``verdict`` its verdict's value."""
        hints = self.hints | {hint} if hint else self.hints
        first = self.first.get(key) if key is not None else None
        if first is not None:
            said = hint is not None and (hint in self.hints or verdict in _UNHINTED_REPEATS)
            return Placement(same_as=first, hint_said=said), Grouping(self.first, hints)
        firsts = self.first if key is None else MappingProxyType({**self.first, key: name})
        # a mistake shown in full shows its hint, said before or not: it is that case's
        return Placement(), Grouping(firsts, hints)

    def place_case(self, c: CaseFeedback, *, grouped: bool = True) -> tuple[Placement, Grouping]:
        key = signature(c) if grouped else None
        return self.place(c.name, key, c.hint, c.verdict.value)
