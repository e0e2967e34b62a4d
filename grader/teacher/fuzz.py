"""Differential fuzzing: random inputs from the exercise's generator, the submission against the
reference, and the first disagreement shrunk to a minimal input.

Why not Hypothesis: an exercise's generator is a script (``generate.py SEED SIZE``) that prints
text, which Hypothesis can neither drive nor shrink. What it would shrink, though, is structure;
here the structure is the input's text itself: its lines, then each line's tokens, or the units
an exercise declares (``fuzz: {units: [lines]}``; specdec's rounds are valid only with their
tokens in pairs, so ``units: [lines, columns]`` with ``parts: "|"`` removes a draft token with the
target token at its position). Shrinking is delta debugging over those units, in turn and again
while a round removes something, every candidate checked by the exercise's validator first, so
that the input reported is valid and 1-minimal: removing any single unit makes the disagreement
vanish (or the input invalid).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from ..judging.errors import GraderError
from ..judging.records import Case, CaseOutcome, FuzzOutcome, Verdict
from ..model.material import Material, generate, validate
from ..model.spec import ShrinkUnits
from ..running.grading import run_case
from ..running.plan import Plan
from ..running.submissions import Submission
from .expected import reference_output

T = TypeVar("T")
LINES_AND_TOKENS = ShrinkUnits()  # what an exercise shrinks by unless its spec says otherwise


class _Oracle:
    """Whether an input is valid and the submission disagrees with the reference on it."""

    def __init__(self, plan: Plan, material: Material, submission: Submission) -> None:
        self.plan, self.material, self.submission = plan, material, submission
        self.checks = 0
        self._seen: dict[bytes, CaseOutcome | None] = {}
        self._lock = threading.Lock()

    def outcome(self, data: bytes) -> CaseOutcome | None:
        """The failing outcome on ``data``, or None (it agrees, or the input is not valid)."""
        with self._lock:
            if data in self._seen:
                return self._seen[data]
            self.checks += 1
        found = None
        if validate(self.material, data) is None:
            try:
                expected = reference_output(self.plan.exercise, data, runner=self.plan.runner)
            except GraderError:  # the reference fails on it: no verdict to disagree with
                expected = None
            if expected is not None:
                case = Case(name="fuzz", input=data, expected=expected, title="fuzz")
                script, text = self.submission.path.resolve(), self.submission.text
                judged = run_case(self.plan, script, case, text=text, cells=self.submission.cells)
                wrong = not judged.passed and judged.verdict is not Verdict.GRADER_ERROR
                found = judged if wrong else None
        with self._lock:
            self._seen[data] = found
        return found


def _ddmin(units: list[T], keeps: Callable[[list[T]], bool]) -> list[T]:
    """A 1-minimal sublist of ``units`` that still ``keeps`` (Zeller's delta debugging,
    complements only: what matters is which units can go)."""
    chunks = 2
    while len(units) >= 2:
        size = max(1, len(units) // chunks)
        removed = False
        for start in range(0, len(units), size):
            candidate = units[:start] + units[start + size :]
            if candidate and keeps(candidate):
                units, chunks, removed = candidate, max(chunks - 1, 2), True
                break
        if not removed:
            if size == 1:
                break
            chunks = min(len(units), chunks * 2)
    return units


def _columns(line: str, parts: str, kept: Collection[int]) -> str:
    """``line`` with only the ``kept`` positions of each part's words (counted from 0 in each
    part, the spaces around them as they were)."""
    shown = []
    for part in line.split(parts):
        words, n = [], -1
        for word in part.split(" "):
            n += bool(word)
            if not word or n in kept:
                words.append(word)
        shown.append(" ".join(words))
    return parts.join(shown)


def shrink(
    data: bytes, keeps: Callable[[bytes], bool], units: ShrinkUnits = LINES_AND_TOKENS
) -> bytes:
    """``data`` made smaller unit by unit while ``keeps`` holds: by each of ``units`` in turn
    (lines, then within each line its tokens or its columns), again while a round removes
    something, since what one unit removes can let another go; every result keeps."""
    text = data.decode(errors="surrogateescape")
    ending = "\n" if text.endswith("\n") else ""
    lines = text.split("\n")
    if ending:
        lines = lines[:-1]

    def join(parts: list[str]) -> bytes:
        return ("\n".join(parts) + ending).encode(errors="surrogateescape")

    def line_at(i: int) -> Callable[[str], bool]:
        return lambda candidate: keeps(join([*lines[:i], candidate, *lines[i + 1 :]]))

    while True:
        before = list(lines)
        for unit in units.units:
            if unit == "lines":
                lines = _ddmin(lines, lambda c: keeps(join(c)))
                continue
            for i, line in enumerate(lines):
                lines[i] = _shrink_line(line, unit, units.parts, line_at(i))
        if lines == before or len(units.units) == 1:
            return join(lines)


def _shrink_line(line: str, unit: str, parts: str, keeps: Callable[[str], bool]) -> str:
    """One line made smaller by its tokens or by its columns while ``keeps`` holds."""
    if unit == "tokens":

        def with_words(words: list[str]) -> bool:
            return keeps(" ".join(words))

        return " ".join(_ddmin(line.split(" "), with_words))

    def with_columns(kept: list[int]) -> bool:
        return keeps(_columns(line, parts, kept))

    most = max(sum(map(bool, part.split(" "))) for part in line.split(parts))
    return _columns(line, parts, _ddmin(list(range(most)), with_columns))


def fuzz(
    plan: Plan,
    material: Material,
    submission: Submission,
    *,
    count: int,
    seed: int,
    units: ShrinkUnits | None = None,
) -> FuzzOutcome:
    """Up to ``count`` generated inputs, sizes growing from 1; the first disagreement, shrunk
    (the outcome's ``finding``: the submission's run on it, judged against the reference)."""
    if not material.generator.is_file():
        raise GraderError(f"{material.generator} is missing: --fuzz needs the generator")
    oracle = _Oracle(plan, material, submission)
    units = plan.exercise.shrink if units is None else units
    rng = random.Random(seed)
    seeds = [rng.randrange(1 << 30) for _ in range(count)]
    sizes = [1 + (i * 40) // max(1, count) for i in range(count)]  # tiny first: most show there

    def attempt(i: int) -> tuple[bytes, CaseOutcome | None]:
        data = generate(material, seeds[i], sizes[i])
        return data, oracle.outcome(data)

    # a batch at a time, as many as the plan runs at once; the first disagreement in order wins,
    # so a seed finds the same input whatever the timing
    with ThreadPoolExecutor(max_workers=plan.jobs) as pool:
        for start in range(0, count, plan.jobs * 2):
            batch = list(pool.map(attempt, range(start, min(count, start + plan.jobs * 2))))
            for offset, (data, failing) in enumerate(batch):
                if failing is None:
                    continue
                before = oracle.checks
                small = shrink(data, lambda d: oracle.outcome(d) is not None, units)
                found = oracle.outcome(small)
                assert found is not None  # shrink keeps what it was given
                runs = oracle.checks - before
                return FuzzOutcome(seed, count, start + offset + 1, found, shrink_runs=runs)
    return FuzzOutcome(seed, count, count)
