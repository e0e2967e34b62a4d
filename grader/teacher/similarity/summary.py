"""A similarity report's few lines for a terminal or a CI log: the counts and the top pairs."""

from __future__ import annotations

from ...render.escape import log_safe, safe
from .report import SimilarityReport

TOP = 10


def summary(report: SimilarityReport, top: int = TOP) -> str:
    o = report.options
    compared = sum(c.problem is None for c in report.submissions)
    lines = [
        f"{report.exercise}: {compared} submissions compared, {report.compared_pairs} pairs, "
        f"{len(report.pairs)} from {o.threshold:.2f}",
    ]
    for p in report.pairs[:top]:
        evidence = "" if p.evidence is None else f", evidence {p.evidence.bits:.1f} bits"
        lines.append(f"  {p.score:.3f}  {p.a} and {p.b}{evidence}")
    if len(report.pairs) > top:
        lines.append(f"  ... {len(report.pairs) - top} more in the report")
    if report.clusters:
        lines.append(f"{len(report.clusters)} clusters of more than two")
    unread = [c for c in report.submissions if c.problem is not None]
    partial = [c for c in report.submissions if c.partial is not None]
    if unread:
        lines.append(f"{len(unread)} not compared: {', '.join(c.name for c in unread[:5])}")
    if partial:
        lines.append(f"{len(partial)} compared only in part (see the report)")
    lines.append("similarity is evidence for a person to look at, not a verdict")
    return "".join(log_safe(safe(line)) + "\n" for line in lines)
