"""``grade compare``'s report: text for a terminal or a CI log, and JSON. Submission names,
case names and messages are data: through ``safe`` and ``log_safe`` in the text, JSON's own
escaping in the JSON."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .escape import log_safe, safe

if TYPE_CHECKING:
    from ..running.rejudge import Change, Rejudging

KIND = "grade-compare"  # what --expect recognises as a reviewed list


def _score(score: float | None) -> str:
    return "no score" if score is None else f"{score:.4g}"


def _verdict(verdict: str | None) -> str:
    return "(no such case)" if verdict is None else verdict


def text(found: Rejudging) -> str:
    """One block per submission that moved, then one line in sum."""
    lines: list[str] = []
    for change in found.changed:
        lines.extend(_change_lines(found, change))
    for name in found.only_old:
        lines.append(f"{safe(name)}: only in {safe(found.old)}{_mark(found, name)}")
    for name in found.only_new:
        lines.append(f"{safe(name)}: only in {safe(found.new)}{_mark(found, name)}")
    if found.expected_unchanged:
        named = ", ".join(safe(n) for n in found.expected_unchanged)
        lines.append(f"on the reviewed list but unchanged: {named}")
    lines.append(_sum_line(found))
    return log_safe("\n".join(lines)) + "\n"


def _change_lines(found: Rejudging, change: Change) -> list[str]:
    head = f"{safe(change.submission)}: score {_score(change.old_score)} -> "
    lines = [head + _score(change.new_score) + _mark(found, change.submission)]
    if change.new_score is None and change.problem:
        lines.append(f"  {safe(change.problem)}")
    for case in change.cases:
        said = f": {safe(case.message)}" if case.message else ""
        lines.append(f"  {safe(case.case)}: {_verdict(case.old)} -> {_verdict(case.new)}{said}")
    return lines


def _mark(found: Rejudging, name: str) -> str:
    return " (reviewed)" if found.expected is not None and name in found.expected else ""


def _sum_line(found: Rejudging) -> str:
    where = f"{safe(found.exercise)}: " if found.exercise else ""
    moved = len(found.changed) + len(found.only_old) + len(found.only_new)
    line = (
        f"{where}{len(found.changed)} of {found.compared} submissions changed, "
        f"{len(found.only_old)} only in {safe(found.old)}, "
        f"{len(found.only_new)} only in {safe(found.new)}"
    )
    if found.expected is not None:
        line += f"; {moved - len(found.unexpected)} on the reviewed list, "
        line += f"{len(found.unexpected)} not"
    return line


def to_json(found: Rejudging) -> str:
    data: dict[str, Any] = {
        "kind": KIND,
        "exercise": found.exercise,
        "old": found.old,
        "new": found.new,
        "compared": found.compared,
        "changed": [
            {
                "submission": c.submission,
                "old_score": c.old_score,
                "new_score": c.new_score,
                "error": c.problem or None,
                "reviewed": c.expected,
                "cases": [
                    {"case": k.case, "old": k.old, "new": k.new, "message": k.message}
                    for k in c.cases
                ],
            }
            for c in found.changed
        ],
        "only_old": list(found.only_old),
        "only_new": list(found.only_new),
        "unexpected": list(found.unexpected),
        "reviewed_unchanged": list(found.expected_unchanged),
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
