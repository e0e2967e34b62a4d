"""A similarity report as JSON (``grade similar --json``): versioned, and the same bytes for the
same class on every run and machine: keys and pairs sorted, scores rounded, and no path of the
machine in it (an option naming a file says only that it was given)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .report import NOTICE, Compared, Evidence, Pair, SimilarityReport

KIND = "grade-similarity"
SCHEMA_VERSION = 1


def to_json(report: SimilarityReport) -> str:
    return json.dumps(to_dict(report), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def to_dict(report: SimilarityReport) -> dict[str, Any]:
    o = report.options
    return {
        "kind": KIND,
        "schema_version": SCHEMA_VERSION,
        "notice": NOTICE,
        "exercise": report.exercise,
        "options": {
            "k": o.k,
            "window": o.window,
            "threshold": o.threshold,
            "max_share": o.max_share,
            "min_fingerprints": o.min_fingerprints,
            "most_pairs": o.most_pairs,
            "starters": len(o.starters),
            "archives": sorted(Path(a).name for a in o.archive),
            "gradebook": report.gradebook_used,
            "anonymize": o.anonymize,
        },
        "ignored_fingerprints": {
            "reference": report.ignored.reference,
            "starter": report.ignored.starter,
            "common": report.ignored.common,
        },
        "submissions": [_submission(c) for c in report.submissions],
        "compared_pairs": report.compared_pairs,
        "pairs": [_pair(p) for p in report.pairs],
        "evidence_pairs": [_pair(p) for p in report.evidence_pairs],
        "clusters": [list(c) for c in report.clusters],
        "histogram": {
            "bin_width": round(report.histogram.width, 6),
            "counts": list(report.histogram.counts),
        },
    }


def _submission(c: Compared) -> dict[str, Any]:
    return {
        "name": c.name,
        "archived": c.archived,
        "tokens": c.tokens,
        "fingerprints": c.fingerprints,
        "problem": c.problem,
        "partial": c.partial,
    }


def _pair(p: Pair) -> dict[str, Any]:
    return {
        "a": p.a,
        "b": p.b,
        "archived": p.archived,
        "score": p.score,
        "a_share": p.a_share,
        "b_share": p.b_share,
        "shared_fingerprints": p.shared,
        "regions": [{"a": [r.a_first, r.a_last], "b": [r.b_first, r.b_last]} for r in p.regions],
        "evidence": _evidence(p.evidence),
    }


def _evidence(e: Evidence | None) -> dict[str, Any] | None:
    if e is None:
        return None
    return {
        "bits": e.bits,
        "shared": [{"what": s.what, "holders": s.holders, "bits": s.bits} for s in e.shared],
    }
