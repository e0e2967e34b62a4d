"""How a report states its score, in every human format: one wording, so that no format can
show a number for a run the grader never judged."""

from __future__ import annotations

from ..judging.records import Feedback

NOT_GRADED = "not graded: a grader error, not a mistake of yours; it is to be graded again"


def score_words(feedback: Feedback, *, points: bool = True) -> str:
    """``score 0.85 (17/20 points)``, or the words that say there is none."""
    grade = feedback.grade
    if grade is None:
        return NOT_GRADED
    shown = f" ({feedback.points:g}/{feedback.max_points:g} points)" if points else ""
    return f"score {grade:.2f}{shown}"
