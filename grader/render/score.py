"""How a report states its score, in every human format: one wording, so that no format can
show a number for a run the grader never judged."""

from __future__ import annotations

from collections.abc import Iterable

from ..judging.records import Feedback

NOT_GRADED = "not graded: a grader error, not a mistake of yours; it is to be graded again"


def score_words(feedback: Feedback, *, points: bool = True) -> str:
    """``score 0.85 (17/20 points)``, or the words that say there is none."""
    grade = feedback.grade
    if grade is None:
        return NOT_GRADED
    shown = f" ({feedback.points:g}/{feedback.max_points:g} points)" if points else ""
    return f"score {grade:.2f}{shown}"


BUCKETS = 10  # a histogram's bars: tenths of the score, 1.0 in the last


def histogram(scores: Iterable[float | None]) -> list[int]:
    """How many scores fall in each tenth, 0-0.1 first. A missing score (the grader failed on
    the submission) is in no bar; a file that is no gradable script scores 0 (``Entry.score``)
    and is in the first, as it is in the CSV: one rule for every format that counts scores."""
    counts = [0] * BUCKETS
    for score in scores:
        if score is not None:
            counts[min(BUCKETS - 1, int(score * BUCKETS))] += 1
    return counts


def bucket_label(i: int) -> str:
    """The scores a histogram's bar ``i`` counts, as every format labels it: ``0.9-1.0``."""
    return f"{i / BUCKETS:.1f}-{(i + 1) / BUCKETS:.1f}"
