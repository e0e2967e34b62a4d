"""The gradebook files: JSON (the reports) and CSV (one row per submission), and merging shards.

Everything here works on the JSON form, so ``grade merge`` needs nothing but the shard files.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .batch import Gradebook
from .errors import UsageError
from .render.json import SCHEMA_VERSION, to_dict

KIND = "grade-gradebook"


def gradebook_dict(book: Gradebook) -> dict[str, Any]:
    return {
        "kind": KIND,
        "schema_version": SCHEMA_VERSION,
        "exercise": book.exercise,
        "cases": list(book.case_names),
        "shard": book.shard,
        "interrupted": book.interrupted,
        "submissions": [
            {
                "submission": e.name,
                "path": e.path,
                "error": e.error,
                "report": to_dict(e.report) if e.report is not None else None,
            }
            for e in book.entries
        ],
    }


def csv_text(book: dict[str, Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["submission", "score", "passed", "total", "error", *book["cases"]])
    for row in book["submissions"]:
        report = row["report"] or {}
        verdicts = {c["name"]: c["status"] for c in report.get("cases", [])}
        writer.writerow(
            [
                row["submission"],
                f"{report['score']:.4f}" if report else "0.0000",
                report.get("passed", 0),
                report.get("total", len(book["cases"])),
                row["error"] or "",
                *(verdicts.get(name, "") for name in book["cases"]),
            ]
        )
    return out.getvalue()


def summary_text(book: dict[str, Any]) -> str:
    """One line per submission, for the terminal or a CI log."""
    rows = book["submissions"]
    width = max((len(r["submission"]) for r in rows), default=0)
    lines = []
    for row in rows:
        report = row["report"]
        result = (
            f"error: {row['error']}"
            if report is None
            else f"{report['passed']}/{report['total']} passed, score {report['score']:.2f}"
        )
        lines.append(f"{row['submission']:<{width}}  {result}")
    graded = sum(r["report"] is not None for r in rows)
    lines.append(f"{len(rows)} submissions, {graded} graded, {len(rows) - graded} not gradable")
    return "\n".join(lines) + "\n"


def read(path: Path) -> dict[str, Any]:
    try:
        book: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read gradebook {path}: {exc}") from exc
    if not isinstance(book, dict) or book.get("kind") != KIND:
        raise UsageError(f"{path} is not a grade gradebook (from grade batch --json)")
    return book


def merge(books: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One gradebook from shards of the same exercise; a submission in two shards is an error."""
    exercises = {b["exercise"] for b in books}
    if len(exercises) != 1:
        raise UsageError(f"cannot merge gradebooks of different exercises: {sorted(exercises)}")
    rows: dict[str, dict[str, Any]] = {}
    for book in books:
        for row in book["submissions"]:
            if row["submission"] in rows:
                raise UsageError(f"{row['submission']} is in more than one gradebook")
            rows[row["submission"]] = row
    return {
        "kind": KIND,
        "schema_version": SCHEMA_VERSION,
        "exercise": books[0]["exercise"],
        "cases": books[0]["cases"],
        "shard": None,
        "interrupted": any(b["interrupted"] for b in books),
        "submissions": [rows[name] for name in sorted(rows)],
    }


def dump(book: dict[str, Any]) -> str:
    return json.dumps(book, indent=2, ensure_ascii=False) + "\n"
