"""``--format gradescope``: the ``results.json`` a Gradescope autograder writes.

``score`` is in points, as Gradescope adds them up; each case is one test with its own visibility,
which Gradescope itself enforces towards students. Hidden cases carry no input or output anyway.
"""

from __future__ import annotations

import json
from typing import Any

from ..report import CaseOutcome, Report
from .text import case_details


def _test(number: int, outcome: CaseOutcome) -> dict[str, Any]:
    output = f"{outcome.verdict.value} in {outcome.time_s:.2f} s"
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


def render_gradescope(report: Report) -> str:
    result = {
        "score": report.points,
        "execution_time": report.time_s,
        "output": f"{report.passed}/{report.total} cases passed",
        "tests": [_test(n, c) for n, c in enumerate(report.cases, start=1)],
    }
    return json.dumps(result, indent=2, ensure_ascii=False) + "\n"
