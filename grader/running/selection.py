"""Which cases a student asked for (``-k``, ``--lf``), and what failed last time.

The last failures are remembered per exercise and submission in the user's cache folder
(``$XDG_CACHE_HOME/grade``, as pytest keeps ``.pytest_cache``): outside the course and outside
anything a sandboxed run may read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..files import write_atomically
from ..judging.errors import UsageError
from ..judging.records import Case, Report

LAST_FAILED = "lastfailed.json"
# Submissions remembered, the latest graded: --lf is about what one is working on now, and
# a cache read and rewritten by every check must not grow with every path ever graded
LAST_FAILED_KEPT = 256


def select(cases: Sequence[Case], keywords: Sequence[str]) -> tuple[Case, ...]:
    """The cases whose name or title holds any of ``keywords`` (case-insensitive), as pytest's
    ``-k`` does with a plain word; all of them when there is no keyword."""
    if not keywords:
        return tuple(cases)
    words = [k.casefold() for k in keywords]
    chosen = tuple(
        c for c in cases if any(w in c.name.casefold() or w in c.title.casefold() for w in words)
    )
    if not chosen:
        names = ", ".join(c.name for c in cases)
        raise UsageError(f"no case matches -k {' -k '.join(keywords)} (the cases: {names})")
    return chosen


def cache_dir(environ: Mapping[str, str]) -> Path:
    base = environ.get("XDG_CACHE_HOME") or str(Path(environ.get("HOME", "~")) / ".cache")
    return Path(base).expanduser() / "grade"


def _key(exercise: str, submission: Path) -> str:
    return f"{exercise} {submission.resolve()}"


def _load(path: Path) -> dict[str, list[str]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # no cache yet, or a broken one: as if nothing had failed
    return data if isinstance(data, dict) else {}


def last_failed(exercise: str, submission: Path, *, environ: Mapping[str, str]) -> set[str] | None:
    """The cases that did not pass the last time, or None when it never ran here."""
    found = _load(cache_dir(environ) / LAST_FAILED).get(_key(exercise, submission))
    return set(found) if isinstance(found, list) else None


def remember(report: Report, submission: Path, *, environ: Mapping[str, str]) -> None:
    """Keep which cases did not pass (a selection keeps the others' earlier failures)."""
    folder = cache_dir(environ)
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return  # a read-only home: --lf then runs everything, which is never wrong
    data = _load(folder / LAST_FAILED)
    key = _key(report.exercise, submission)
    ran = {o.case.name for o in report.outcomes}
    failed = {o.case.name for o in report.outcomes if not o.passed}
    earlier = data.pop(key, [])  # and in again, at the end: the order is how recent
    data[key] = sorted((set(earlier if isinstance(earlier, list) else []) - ran) | failed)
    for old in list(data)[: max(0, len(data) - LAST_FAILED_KEPT)]:
        del data[old]
    try:
        text = json.dumps(data, indent=1) + "\n"
        write_atomically(folder / LAST_FAILED, text, durable=False)
    except Exception:  # the cache is a convenience: never fail a grading run for it
        return


def only_failed(
    cases: Sequence[Case], failed: set[str] | None
) -> tuple[tuple[Case, ...], str | None]:
    """``--lf``: the cases that failed last time, and what to tell the student when that is
    not what runs."""
    if failed is None:
        return tuple(cases), "--lf: no earlier run of this submission here; running every case"
    chosen = tuple(c for c in cases if c.name in failed)
    if not chosen:
        return tuple(cases), "--lf: every case passed last time; running every case"
    return chosen, None
