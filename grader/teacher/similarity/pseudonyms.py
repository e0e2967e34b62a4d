"""``--anonymize``: every name in a report replaced by a pseudonym, for sharing a report.

A pseudonym is a keyed digest of the name, the key a digest of the class's own texts: the same
class gives the same pseudonyms on every run (a colleague's notes still match), while a list of
the students' names alone cannot tell who is who.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import replace

from .report import Pair, Region, SimilarityReport


def class_digest(texts: Iterable[bytes]) -> bytes:
    """A key only this class's texts give (in any order)."""
    digest = hashlib.blake2b(digest_size=32)
    for text in sorted(texts):
        digest.update(hashlib.blake2b(text, digest_size=32).digest())
    return digest.digest()


def pseudonym(name: str, key: bytes) -> str:
    digest = hashlib.blake2b(name.encode("utf-8"), key=key[:64], digest_size=5).hexdigest()
    archive, slash, _ = name.rpartition("/")
    # an earlier class stays marked as one; its label (a folder's name) is no student's
    return f"{archive}/student-{digest}" if slash else f"student-{digest}"


def anonymized(report: SimilarityReport, texts: Iterable[bytes]) -> SimilarityReport:
    key = class_digest(texts)
    names = {c.name: pseudonym(c.name, key) for c in report.submissions}

    def renamed(pair: Pair) -> Pair:
        pair = replace(pair, a=names[pair.a], b=names[pair.b])
        return pair if pair.archived or pair.a <= pair.b else _swapped(pair)

    pairs = sorted((renamed(p) for p in report.pairs), key=lambda p: (-p.score, p.a, p.b))
    apart = [renamed(p) for p in report.evidence_pairs]
    apart.sort(key=lambda p: (-(p.evidence.bits if p.evidence else 0.0), p.a, p.b))
    return replace(
        report,
        submissions=tuple(
            sorted(
                (replace(c, name=names[c.name]) for c in report.submissions),
                key=lambda c: (c.archived, c.name),
            )
        ),
        pairs=tuple(pairs),
        evidence_pairs=tuple(apart),
        clusters=tuple(sorted(tuple(sorted(names[n] for n in g)) for g in report.clusters)),
        sources=tuple(sorted((names[n], lines) for n, lines in report.sources)),
    )


def _swapped(pair: Pair) -> Pair:
    return replace(
        pair,
        a=pair.b,
        b=pair.a,
        a_share=pair.b_share,
        b_share=pair.a_share,
        regions=tuple(
            sorted(
                (Region(r.b_first, r.b_last, r.a_first, r.a_last) for r in pair.regions),
                key=lambda r: (r.a_first, r.b_first),
            )
        ),
    )
