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


def pseudonym(name: str, key: bytes, archived: bool = False) -> str:
    """Nothing of ``name`` but, for an earlier class's, its label (the --archive folder's
    name, the teacher's): a class's name may hold folders, and they are the student's."""
    digest = hashlib.blake2b(name.encode("utf-8"), key=key[:64], digest_size=5).hexdigest()
    label = name.split("/", 1)[0]
    return f"{label}/student-{digest}" if archived else f"student-{digest}"


# A reason quotes the student's files and folders: under --anonymize, only that there is one
WITHHELD = "not compared (its reason names the student's files: left out by --anonymize)"


def anonymized(report: SimilarityReport, texts: Iterable[bytes]) -> SimilarityReport:
    key = class_digest(texts)
    names = {c.name: pseudonym(c.name, key, c.archived) for c in report.submissions}

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
                (
                    replace(
                        c,
                        name=names[c.name],
                        problem=None if c.problem is None else WITHHELD,
                    )
                    for c in report.submissions
                ),
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
