"""``--format gradescope``: the ``results.json`` a Gradescope autograder writes.

``score`` is in points, as Gradescope adds them up; each case is one test with its own visibility,
which Gradescope itself enforces towards students; hidden cases' feedback holds no data anyway.
"""

from __future__ import annotations

import json
from typing import Any

from ..judging.records import CaseFeedback, Feedback
from .escape import safe
from .text import case_details


def _test(number: int, outcome: CaseFeedback) -> dict[str, Any]:
    output = outcome.verdict.value
    if outcome.details_shown:
        output += f" in {outcome.time_text}"
    if not outcome.passed:
        output += "\n" + case_details(outcome)
    return {
        "name": outcome.title,
        "number": str(number),
        "score": outcome.points,
        "max_score": outcome.max_points,
        "status": "passed" if outcome.passed else "failed",
        "output": output,
        "visibility": outcome.visibility.value,
    }


def _graded_by(feedback: Feedback) -> str:
    course = feedback.course
    return "" if course is None else f" (course: {safe(course.name)})"


def render_gradescope(feedback: Feedback) -> str:
    result = {
        "score": feedback.points,
        "execution_time": feedback.time_s,
        "output": f"{feedback.passed}/{feedback.total} cases passed" + _graded_by(feedback),
        "tests": [_test(n, c) for n, c in enumerate(feedback.cases, start=1)],
    }
    return json.dumps(result, indent=2, ensure_ascii=False) + "\n"
