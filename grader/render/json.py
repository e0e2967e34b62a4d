"""``--format json``: one object on stdout for CI. Fields may be added, never removed or renamed.

Also the JSON form of a report inside a gradebook, which ``feedback_from_dict`` reads back.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from .. import __version__
from ..judging.records import (
    CaseFeedback,
    Course,
    Diagnosis,
    Feedback,
    FuzzFeedback,
    Verdict,
    Visibility,
)

SCHEMA_VERSION = 1


def _case(c: CaseFeedback) -> dict[str, Any]:
    found: dict[str, Any] = {
        "name": c.name,
        "title": c.title,
        "status": c.verdict.value,
        "time_s": c.time_s,
        "exit_code": c.exit_code,
        "message": c.message,
        "points": c.points,
        "max_points": c.max_points,
        "visibility": c.visibility.value,
        # the most memory the run held at once, and that as a share of its limit: null where
        # not measured, and for a hidden case (as its time is 0)
        "peak_memory_mb": c.peak_mb,
        "memory_limit_mb": c.memory_mb,
        "memory_share": c.memory_share,
    }
    if c.hint is not None:  # what the case checks, where its verdict is about it (HINTED)
        found["hint"] = c.hint
    if c.advice is not None:  # a recognised mistake's advice (diagnose.py)
        found["advice"] = c.advice
    if c.diagnosis is not None:  # only where a known mistake matched
        found["diagnosis"] = {"mistake": c.diagnosis.mistake, "hint": c.diagnosis.message}
    return found


def _diagnoses(feedback: Feedback) -> list[dict[str, Any]]:
    """The known mistake the outputs are, with the cases it explains: one entry at most (a
    list, as it always was; two mistakes that fit alike are named by none)."""
    d = feedback.diagnosis
    if d is None:
        return []
    return [{"mistake": d.mistake, "hint": d.message, "cases": list(d.cases)}]


def _fuzz(fuzz: FuzzFeedback) -> dict[str, Any]:
    """What --fuzz did; ``finding`` is null when every generated input agreed."""
    found = fuzz.finding
    finding = None
    if found is not None:
        finding = {
            "status": found.verdict.value,
            "message": found.message,
            "input": found.input,  # the shrunk input exactly, its last newline or none included
            "expected": found.expected,
            "got": found.stdout,
            "stderr": found.stderr,
            "exit_code": found.exit_code,
            "time_s": found.time_s,
            "shrink_runs": fuzz.shrink_runs,
            "save_case": fuzz.save_case,
            "saved": fuzz.saved or None,
        }
    return {"seed": fuzz.seed, "inputs": fuzz.count, "tried": fuzz.tried, "finding": finding}


def to_dict(feedback: Feedback) -> dict[str, Any]:
    found = _report(feedback)
    if feedback.fuzz is not None:  # only where --fuzz was asked for
        found["fuzz"] = _fuzz(feedback.fuzz)
    return found


def _report(feedback: Feedback) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "grader_version": __version__,
        "exercise": feedback.exercise,
        "submission": feedback.submission,
        "passed": feedback.passed,
        "total": feedback.total,
        "score": None if feedback.grade is None else round(feedback.grade, 6),  # null: not judged
        "error": feedback.not_graded or None,  # why there is no score
        "points": feedback.points,
        "max_points": feedback.max_points,
        "time_s": feedback.time_s,
        "started_at": feedback.started_at,
        "course": None if feedback.course is None else _course(feedback.course),
        "cases": [_case(c) for c in feedback.cases],
        "diagnoses": _diagnoses(feedback),
    }


def _course(course: Course) -> dict[str, str]:
    return {"name": course.name, "root": course.root, "found": course.found}


def _course_from_dict(data: Any) -> Course | None:
    if not isinstance(data, Mapping):
        return None  # a gradebook from before the field
    return Course(str(data["name"]), str(data["root"]), str(data["found"]))


def _number(value: object) -> float:
    """A count or a time as grading writes it: a finite JSON number, at least 0."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{repr(value)[:40]} is not a number")  # a shard's text: short
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{value!r} is not a finite number of at least 0")
    return float(value)


def _exit_code(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{repr(value)[:40]} is not an exit status")
    return value


def _case_from_dict(data: Mapping[str, Any]) -> CaseFeedback:
    visibility = Visibility(data["visibility"])
    verdict = Verdict(data["status"])
    points, max_points = _number(data["points"]), _number(data["max_points"])
    # a case earns its points whole when it passes and none otherwise (CaseOutcome.points):
    # a shard saying otherwise was not written by a grading
    if points != (max_points if verdict is Verdict.PASSED else 0.0):
        raise ValueError(f"{points:g} points of {max_points:g} for a case {verdict.value}")
    return CaseFeedback(
        name=str(data["name"]),
        title=str(data["title"]),
        verdict=verdict,
        message=str(data["message"]),
        time_s=_number(data["time_s"]),
        exit_code=None if data["exit_code"] is None else _exit_code(data["exit_code"]),
        points=points,
        max_points=max_points,
        visibility=visibility,
        hint=None if data.get("hint") is None else str(data["hint"]),
        advice=None if data.get("advice") is None else str(data["advice"]),
        diagnosis=_diagnosis(data.get("diagnosis")),
        # absent from a gradebook written before the fields
        peak_bytes=_peak(data.get("peak_memory_mb")),
        memory_mb=_whole(data.get("memory_limit_mb")),
    )


def _peak(mb: Any) -> int | None:
    return None if mb is None else round(_number(mb) * (1 << 20))


def _whole(value: Any) -> int | None:
    return None if value is None else int(_number(value))


def _report_diagnosis(data: Any) -> Diagnosis | None:
    """The report's one diagnosis, from its ``diagnoses`` list (a gradebook of before may list
    several, one per case's match: none of them is then the report's)."""
    if not isinstance(data, list) or len(data) != 1:
        return None
    found = _diagnosis(data[0])
    cases = data[0].get("cases")
    if found is None or not isinstance(cases, list):
        return None
    return Diagnosis(found.mistake, found.hint, tuple(str(c) for c in cases))


def _diagnosis(data: Any) -> Diagnosis | None:
    if not isinstance(data, Mapping):
        return None
    hint = str(data["hint"]).removeprefix("your output is exactly that of a program that ")
    return Diagnosis(str(data["mistake"]), hint)


def feedback_from_dict(data: Mapping[str, Any]) -> Feedback:
    """``to_dict``'s inverse for what it keeps; ``KeyError``/``ValueError``/``TypeError`` if not."""
    return Feedback(
        exercise=str(data["exercise"]),
        submission=str(data["submission"]),
        cases=tuple(_case_from_dict(c) for c in data["cases"]),
        started_at=str(data["started_at"]),
        course=_course_from_dict(data.get("course")),
        diagnosis=_report_diagnosis(data.get("diagnoses")),
    )


def render_json(feedback: Feedback) -> str:
    return json.dumps(to_dict(feedback), indent=2, ensure_ascii=False) + "\n"
