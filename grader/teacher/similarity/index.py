"""Pairs scored through an inverted index, fingerprint -> the submissions that have it.

Only submissions that share a fingerprint are ever looked at together, so a class of 1,000
costs what its shared fragments cost, not half a million text comparisons. A fingerprint that
more than ``max_share`` of the class has is what the exercise asks everyone to write (Dolos'
rule), and one of the reference or the starter code is the teacher's: neither is evidence.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from .report import BINS


@dataclass(frozen=True)
class Scored:
    """A pair of submissions (by index, ``a < b``) that share fingerprints."""

    a: int
    b: int
    shared: int
    score: float


def common_hashes(sets: Sequence[frozenset[int]], max_share: float) -> frozenset[int]:
    """Hashes more than ``max_share`` of ``sets`` hold; never one only two hold, which is
    exactly what a copy looks like in a class of three."""
    counts: Counter[int] = Counter()
    for hashes in sets:
        counts.update(hashes)
    most = max_share * len(sets)
    return frozenset(h for h, n in counts.items() if n > most and n > 2)


def pair_score(shared: int, a_size: int, b_size: int, floor: int) -> float:
    """Shared fingerprints over the smaller side's: a copy with code added still scores high."""
    return min(shared / max(min(a_size, b_size), floor), 1.0)


def histogram_bin(score: float) -> int:
    return min(int(score * BINS), BINS - 1)


def scored_pairs(
    kept: Sequence[frozenset[int]],
    in_class: int,
    floor: int,
    *,
    on_row: Callable[[int], None] | None = None,
) -> Iterator[Scored]:
    """Every pair that shares a fingerprint, each once: the first ``in_class`` of ``kept``
    are this class, the rest an archive, compared with the class only, never among themselves.
    Yields the pairs of one submission at a time, so only one row of counts is ever held."""
    postings: dict[int, list[int]] = {}
    for index, hashes in enumerate(kept):
        for h in hashes:
            postings.setdefault(h, []).append(index)  # ascending: enumerate's order
    sizes = [len(h) for h in kept]
    for a in range(in_class):
        row: Counter[int] = Counter()
        for h in kept[a]:
            holders = postings[h]
            later = holders[bisect.bisect_right(holders, a) :]  # b > a: each pair once
            if later:
                row.update(later)
        for b in sorted(row):
            shared = row[b]
            yield Scored(a, b, shared, pair_score(shared, sizes[a], sizes[b], floor))
        if on_row is not None:
            on_row(a)
