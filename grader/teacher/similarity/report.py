"""What ``grade similar`` finds, as frozen records: its options, each submission as compared,
the ranked pairs with their matched lines, the clusters and the histogram of every pair.

A score is evidence for a person to look at, never a verdict: ``NOTICE`` says so in every
report, and the token score and the grader's own evidence are kept apart, never merged.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...judging.errors import UsageError

NOTICE = (
    "Similarity is evidence for a person to look at, not a verdict: short exercises have few "
    "natural solutions, students may work together as allowed, and a high score says only "
    "that two texts share rare fragments. Read the matched lines before concluding anything."
)
BINS = 20  # the histogram's bins over [0, 1]: 0.05 each


@dataclass(frozen=True)
class SimilarityOptions:
    """How a class is compared. ``k`` tokens make a k-gram and winnowing keeps one fingerprint
    per ``window`` k-grams at least; a fingerprint more than ``max_share`` of the class has is
    the exercise's, not anyone's; a pair is listed from ``threshold`` on (``most_pairs`` at
    most); scores are shared fingerprints over the smaller side's, counted as at least
    ``min_fingerprints`` so that a near-empty file cannot score 1."""

    k: int = 10
    window: int = 4
    threshold: float = 0.5
    max_share: float = 0.5
    min_fingerprints: int = 8
    most_pairs: int = 500
    starters: tuple[Path, ...] = ()
    archive: tuple[str, ...] = ()  # files, folders or globs, as for the class
    gradebook: Path | None = None
    anonymize: bool = False

    def __post_init__(self) -> None:
        if self.k < 1 or self.window < 1:
            raise UsageError("the k-gram length and the window must be at least 1")
        if not 0 <= self.threshold <= 1:
            raise UsageError(f"--threshold must be between 0 and 1, not {self.threshold}")
        if not 0 < self.max_share <= 1:
            raise UsageError(f"--max-share must be above 0 and at most 1, not {self.max_share}")
        if self.min_fingerprints < 1 or self.most_pairs < 0:
            raise UsageError("min_fingerprints must be at least 1 and most_pairs not negative")


@dataclass(frozen=True)
class Compared:
    """One submission as compared: its name in the report, whether it is an earlier class's,
    how much of it could be compared, and why not all (or none) of it."""

    name: str
    archived: bool
    tokens: int
    fingerprints: int  # its own: the reference's, the starter's and the class's common left out
    problem: str | None = None  # not compared at all: why (as grade batch says it)
    partial: str | None = None  # compared up to where it stops tokenizing


@dataclass(frozen=True)
class Region:
    """Lines (1-based, both included) of ``a`` and of ``b`` that share fingerprints."""

    a_first: int
    a_last: int
    b_first: int
    b_last: int


@dataclass(frozen=True)
class Shared:
    """One fact of the grader's that two submissions share: the same failure with the same
    output, or the same named mistake; ``holders`` of the class have it."""

    what: str
    holders: int
    bits: float  # log2(class size / holders): the rarer, the more it weighs


@dataclass(frozen=True)
class Evidence:
    """The gradebook's score of a pair: the bits of what they share, beside the token score."""

    bits: float
    shared: tuple[Shared, ...]


@dataclass(frozen=True)
class Pair:
    a: str
    b: str  # an archived submission, when one side is: always ``b``
    score: float  # shared fingerprints over the smaller side's (at least min_fingerprints)
    a_share: float  # of a's fingerprints, the share b has too
    b_share: float
    shared: int
    regions: tuple[Region, ...]
    evidence: Evidence | None = None  # None: no gradebook given
    archived: bool = False


@dataclass(frozen=True)
class Histogram:
    """How many pairs scored in each bin of ``1 / len(counts)``, the last one including 1."""

    counts: tuple[int, ...]

    @property
    def width(self) -> float:
        return 1 / len(self.counts)


@dataclass(frozen=True)
class Ignored:
    """How many distinct fingerprints were left out, and why."""

    reference: int
    starter: int
    common: int  # more than max_share of the class has them


@dataclass(frozen=True)
class SimilarityReport:
    exercise: str
    options: SimilarityOptions
    submissions: tuple[Compared, ...]
    pairs: tuple[Pair, ...]  # ranked: score, then evidence, then names
    clusters: tuple[tuple[str, ...], ...]  # more than two, linked by pairs from the threshold
    histogram: Histogram  # every pair compared, listed or not
    compared_pairs: int
    ignored: Ignored
    evidence_pairs: tuple[Pair, ...] = ()  # the highest evidence, whatever their token score
    gradebook_used: bool = False
    # the listed submissions' lines, for the page's side-by-side view (never in the JSON)
    sources: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def lines(self, name: str) -> tuple[str, ...]:
        return dict(self.sources).get(name, ())
