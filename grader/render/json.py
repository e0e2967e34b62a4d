"""``--format json``: one object on stdout for CI. Fields may be added, never removed or renamed."""

from __future__ import annotations

import json
from typing import Any

from .. import __version__
from ..report import CaseOutcome, Report

SCHEMA_VERSION = 1
HIDDEN_MESSAGE = "hidden case"


def _case(outcome: CaseOutcome) -> dict[str, Any]:
    return {
        "name": outcome.name,
        "title": outcome.title,
        "status": outcome.verdict.value,
        "time_s": outcome.time_s,
        "exit_code": outcome.exit_code,
        # The message quotes expected and actual tokens, which a hidden case must not reveal.
        "message": outcome.message if outcome.visible or outcome.passed else HIDDEN_MESSAGE,
        "points": outcome.points,
        "max_points": outcome.max_points,
        "visibility": outcome.visibility.value,
    }


def to_dict(report: Report) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "grader_version": __version__,
        "exercise": report.exercise,
        "submission": report.submission,
        "passed": report.passed,
        "total": report.total,
        "score": round(report.score, 6),
        "points": report.points,
        "max_points": report.max_points,
        "time_s": report.time_s,
        "started_at": report.started_at,
        "cases": [_case(c) for c in report.cases],
    }


def render_json(report: Report) -> str:
    return json.dumps(to_dict(report), indent=2, ensure_ascii=False) + "\n"
