"""Which public cases catch each known mistake (``grade verify``'s "public cases" row).

A public case (``Case.shown_in_practice``) is shown in full; any other only by its title. A
known mistake (a wrong solution under ``reference/NAME/wrong/``) that fails no public case is one
a student can make, see fail, and learn nothing about: verify warns of it, and ``--clauses``
lists each mistake with the public cases that fail it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..judging.records import Report
from ..model.material import WrongSolution
from .checks import Check, Status


@dataclass(frozen=True)
class Caught:
    """A known mistake and the public cases it fails: a student who makes it sees one of them
    fail in full, or, when there is none, only the titles of hidden cases."""

    script: str  # the wrong solution's file name
    mistake: str
    public: tuple[str, ...]  # the public cases it fails, in case order


def caught_in_public(wrong: Sequence[WrongSolution], reports: Sequence[Report]) -> list[Caught]:
    """Each known mistake with the public cases it fails (any verdict but passed)."""
    return [
        Caught(
            solution.path.name,
            solution.mistake,
            tuple(
                o.case.name for o in report.outcomes if o.case.shown_in_practice and not o.passed
            ),
        )
        for solution, report in zip(wrong, reports, strict=True)
    ]


def mistakes_listing(name: str, caught: Sequence[Caught]) -> str:
    """Each known mistake, then the public cases that catch it, or a warning."""
    if not caught:
        return f"{name}: no known-wrong solution in wrong/\n"
    lines = [f"{name} known mistakes:"]
    for item in caught:
        lines.append(f"  {item.script}: {item.mistake}")
        lines.append(f"      {', '.join(item.public) or 'warn: no public case catches it'}")
    return "\n".join(lines) + "\n"


def public_check(caught: Sequence[Caught]) -> Check:
    """Every known mistake fails a public case: one met only in hidden cases shows the student a
    title and nothing to act on (a warning: the cases are the teacher's)."""
    if not caught:
        return Check("public cases", Status.WARN, "no known-wrong solution to catch")
    missed = [c for c in caught if not c.public]
    if missed:
        shown = "; ".join(f"{c.script} (its mistake: {c.mistake})" for c in missed[:3])
        return Check(
            "public cases",
            Status.WARN,
            f"{len(missed)} of {len(caught)} known mistakes fail no public case: {shown}",
        )
    every = f"each of {len(caught)} known mistakes fails a public case"
    return Check("public cases", Status.OK, every)
