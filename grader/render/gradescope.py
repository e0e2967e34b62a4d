"""``--format gradescope``: the ``results.json`` a Gradescope autograder writes.

``score`` is in points, as Gradescope adds them up; each case is one test with its own visibility,
which Gradescope itself enforces towards students; hidden cases' feedback holds no data anyway.
"""

from __future__ import annotations

import json
from typing import Any

from ..judging.records import CaseFeedback, Feedback, FuzzFeedback
from .escape import safe
from .text import case_details, fuzz_details, fuzz_title


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


def _fuzz_test(number: int, fuzz: FuzzFeedback) -> dict[str, Any]:
    """--fuzz as one more test, of no points: the shrunk input it found, if any."""
    found = fuzz.finding
    output = "passed" if found is None else f"{found.verdict.value}\n{fuzz_details(fuzz)}"
    return {
        "name": fuzz_title(fuzz),
        "number": str(number),
        "score": 0.0,
        "max_score": 0.0,
        "status": "passed" if found is None else "failed",
        "output": output,
        "visibility": "visible",  # a generated input, no case's
    }


def _graded_by(feedback: Feedback) -> str:
    course = feedback.course
    return "" if course is None else f" (course: {safe(course.name)})"


def _fuzzed(fuzz: FuzzFeedback | None) -> str:
    if fuzz is None or fuzz.finding is None:
        return ""
    return f"; fuzz: input {fuzz.tried} of seed {fuzz.seed} disagrees with the reference"


def render_gradescope(feedback: Feedback) -> str:
    tests = [_test(n, c) for n, c in enumerate(feedback.cases, start=1)]
    if feedback.fuzz is not None:
        tests.append(_fuzz_test(len(tests) + 1, feedback.fuzz))
    result: dict[str, Any] = {
        "score": feedback.points,
        "execution_time": feedback.time_s,
        "output": f"{feedback.passed}/{feedback.total} cases passed"
        + _graded_by(feedback)
        + _fuzzed(feedback.fuzz),
        "tests": tests,
    }
    if not feedback.judged:
        # Gradescope has no "no score": a results.json without one is an autograder failure
        # there, which leaves the submission ungraded for staff to re-run, as a grader error
        # must. run_autograder also exits 1 on grade's exit 4.
        del result["score"]
        for test in tests:
            del test["score"]
        result["output"] = f"{feedback.not_graded}\n{result['output']}"
    return json.dumps(result, indent=2, ensure_ascii=False) + "\n"
