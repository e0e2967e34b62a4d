"""The grader's own evidence of a pair, from a class's gradebook (``grade batch --json``).

Two submissions that fail the same case with the same output, or make the same named mistake,
share something tokens cannot show; what most of the class shares says little, what one in a
hundred does says much. Each shared fact weighs log2(class / holders) bits, and a pair's
evidence is their sum: a second score, shown beside the token score and never merged into it.
A failing case counts only where the gradebook holds its output (a visible case): a hidden
case's verdict alone is what any two students failing it have in common.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from ...judging.errors import UsageError
from ...judging.records import Verdict
from ...running.gradebook import Gradebook
from .report import Evidence, Shared

_NOT_THE_STUDENTS = frozenset({Verdict.PASSED, Verdict.SKIPPED, Verdict.GRADER_ERROR})


def facts(book: Gradebook) -> dict[str, frozenset[str]]:
    """Each graded submission's facts, by its name in the gradebook."""
    found: dict[str, frozenset[str]] = {}
    for entry in book.entries:
        if entry.feedback is None:
            continue
        held: set[str] = set()
        for case in entry.feedback.cases:
            if case.diagnosis is not None:
                held.add(f"the known mistake {case.diagnosis.mistake}")
            if case.verdict not in _NOT_THE_STUDENTS and case.details_shown:
                output = hashlib.blake2b(case.stdout.encode("utf-8"), digest_size=6).hexdigest()
                held.add(f"case {case.name}: {case.verdict} with the same output ({output})")
        found[entry.submission] = frozenset(held)
    return found


def load_facts(path: Path, exercise: str) -> dict[str, frozenset[str]]:
    book = Gradebook.load(path)
    if book.exercise != exercise:
        raise UsageError(f"{path} is a gradebook of {book.exercise}, not of {exercise}")
    return facts(book)


class Weigher:
    """Evidence of pairs of one class: each fact's holders counted once, over the class."""

    def __init__(self, held: Mapping[str, frozenset[str]], class_names: Sequence[str]) -> None:
        self.held = held
        self.size = max(len(class_names), 1)
        counts: Counter[str] = Counter()
        for name in class_names:
            counts.update(held.get(name, frozenset()))
        self.holders = counts

    def evidence(self, a: str, b: str) -> Evidence:
        both = self.held.get(a, frozenset()) & self.held.get(b, frozenset())
        shared = []
        for what in sorted(both):
            holders = max(self.holders[what], 2)  # an archived side is not counted in the class
            shared.append(Shared(what, holders, round(max(math.log2(self.size / holders), 0.0), 4)))
        shared.sort(key=lambda s: (-s.bits, s.what))
        return Evidence(round(sum(s.bits for s in shared), 4), tuple(shared))

    def candidates(self) -> set[tuple[str, str]]:
        """The pairs (names sorted) sharing at least one fact, through an index of facts."""
        by_fact: dict[str, list[str]] = {}
        for name, held in self.held.items():
            for what in held:
                by_fact.setdefault(what, []).append(name)
        pairs: set[tuple[str, str]] = set()
        for names in by_fact.values():
            if len(names) > self.size / 2:
                continue  # half the class's: never what marks a pair out
            ordered = sorted(names)
            pairs.update((x, y) for i, x in enumerate(ordered) for y in ordered[i + 1 :])
        return pairs
