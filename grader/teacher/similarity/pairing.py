"""``similar``: a class's submissions compared, as a ``SimilarityReport``.

Each submission is read as ``grade batch`` reads it (the same layouts, limit and refusals),
tokenized, fingerprinted and put in one inverted index; the reference's fingerprints, the
starter code's and those most of the class has are left out before any pair is scored.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ...judging.errors import InternalError, UsageError
from ...model.material import material
from ...model.spec import Exercise
from ...running.batch import discover
from ...running.submissions import Submission, read
from .evidence import Weigher, load_facts
from .index import common_hashes, histogram_bin, pair_score, scored_pairs
from .pseudonyms import anonymized
from .report import (
    BINS,
    Compared,
    Histogram,
    Ignored,
    Pair,
    Region,
    SimilarityOptions,
    SimilarityReport,
)
from .tokens import source_lines, source_text, tokens_of
from .winnow import Fingerprint, winnow

EVIDENCE_PAIRS = 20  # the pairs of highest evidence listed apart, whatever their token score
Progress = Callable[[int, int], None]  # (submissions done, of total)


@dataclass(frozen=True)
class _Subject:
    """One submission being compared: its name, its lines and its fingerprints."""

    name: str
    archived: bool
    lines: tuple[str, ...]
    prints: tuple[Fingerprint, ...]
    tokens: int
    partial: str | None


def similar(
    exercise: Exercise,
    sources: Sequence[Submission],
    options: SimilarityOptions,
    *,
    on_progress: Progress | None = None,
) -> SimilarityReport:
    """Compare ``sources`` (one class, as ``batch.discover`` found it) pair by pair, and each
    with the ``options.archive`` of earlier classes."""
    config = exercise.root.config
    expected = config.submissions.get(exercise.name)
    sources = _located(sources)
    archive: list[Submission] = []
    for raw in options.archive:
        label = Path(raw).name or "archive"
        found = _located(discover([raw], config.max_submission_bytes, expected))
        archive.extend(replace(s, name=f"{label}/{s.name}") for s in found)
    reference = _hashes(_reference(exercise), options)
    starter = _hashes(_starters(options.starters), options) - reference
    teacher = reference | starter

    unread: list[Compared] = []
    subjects: list[_Subject] = []
    for sub, archived in [*((s, False) for s in sources), *((s, True) for s in archive)]:
        name = sub.name
        if sub.problem is not None or sub.text is None:
            unread.append(Compared(name, archived, 0, 0, problem=sub.problem or "not read"))
        else:
            subjects.append(_subject(name, archived, sub.text, options))
    in_class = sum(not s.archived for s in subjects)
    own = [frozenset(fp.hash for fp in s.prints) - teacher for s in subjects]
    common = common_hashes(own[:in_class], options.max_share)
    kept = [hashes - common for hashes in own]

    weigher = None
    if options.gradebook is not None:
        held = load_facts(options.gradebook, exercise.name)
        weigher = Weigher(held, [s.name for s in subjects[:in_class]])
    wanted = weigher.candidates() if weigher is not None else set()

    counts = [0] * BINS
    listed: list[tuple[float, int, int, int]] = []
    evidence_scores: dict[tuple[str, str], tuple[int, int, int]] = {}
    nonzero = 0

    def row_done(a: int) -> None:
        if on_progress is not None:
            on_progress(a + 1, in_class)

    for p in scored_pairs(kept, in_class, options.min_fingerprints, on_row=row_done):
        nonzero += 1
        counts[histogram_bin(p.score)] += 1
        if p.score >= options.threshold and p.shared > 0:
            listed.append((p.score, p.a, p.b, p.shared))
        names = (subjects[p.a].name, subjects[p.b].name)
        if names in wanted:
            evidence_scores[names] = (p.a, p.b, p.shared)
    earlier = len(subjects) - in_class
    compared_pairs = in_class * (in_class - 1) // 2 + in_class * earlier
    counts[0] += compared_pairs - nonzero

    listed.sort(key=lambda t: (-t[0], subjects[t[1]].name, subjects[t[2]].name))
    del listed[options.most_pairs :]
    pairs = [_pair(subjects, kept, options, a, b, shared) for _, a, b, shared in listed]
    apart: list[Pair] = []
    if weigher is not None:
        pairs = [replace(p, evidence=weigher.evidence(p.a, p.b)) for p in pairs]
        apart = _evidence_pairs(weigher, wanted, evidence_scores, subjects, kept, options)
    compared = [
        Compared(s.name, s.archived, s.tokens, len(k), partial=s.partial)
        for s, k in zip(subjects, kept, strict=True)
    ]
    report = SimilarityReport(
        exercise=exercise.name,
        options=options,
        submissions=tuple(sorted([*compared, *unread], key=lambda c: (c.archived, c.name))),
        pairs=tuple(pairs),
        clusters=clusters(pairs, options.threshold),
        histogram=Histogram(tuple(counts)),
        compared_pairs=compared_pairs,
        ignored=Ignored(len(reference), len(starter), len(common)),
        evidence_pairs=tuple(apart),
        gradebook_used=weigher is not None,
        sources=_sources(subjects, [*pairs, *apart]),
    )
    if options.anonymize:
        return anonymized(report, [s.text or b"" for s in [*sources, *archive]])
    return report


def _subject(name: str, archived: bool, text: bytes, options: SimilarityOptions) -> _Subject:
    source = source_text(text)
    found = tokens_of(source)
    prints = winnow(found.tokens, options.k, options.window)
    return _Subject(name, archived, source_lines(source), prints, len(found.tokens), found.error)


def _located(subs: Sequence[Submission]) -> list[Submission]:
    """``subs`` with names and reasons that read the same wherever the class sits: the folders
    that every absolute path among them shares are left out (a file given or globbed by an
    absolute path, a clash's name and reason). Named by the file alone, an absolute glob's
    submissions were all 'pages.py'."""
    paths = [str(s.path.parent) for s in subs if s.path.is_absolute()]
    if not paths:
        return list(subs)
    base = os.path.commonpath(paths)
    if os.path.dirname(base) == base:  # the file system's root: nothing shared to leave out
        return list(subs)
    prefix = base.rstrip(os.sep) + os.sep

    def cut(text: str) -> str:
        return text.replace(prefix, "")

    located = [
        replace(s, name=cut(s.name), problem=None if s.problem is None else cut(s.problem))
        for s in subs
    ]
    names = [s.name for s in located]
    return located if len(set(names)) == len(names) else list(subs)


def _reference(exercise: Exercise) -> list[bytes]:
    try:
        found = read(material(exercise).solution)
    except InternalError:  # an installed course has no reference/: nothing of it to leave out
        return []
    return [found.text] if found.text is not None else []


def _starters(paths: Iterable[Path]) -> list[bytes]:
    texts = []
    for path in paths:
        found = read(path)
        if found.text is None:
            raise UsageError(f"--starter {path} {found.problem}")
        texts.append(found.text)
    return texts


def _hashes(texts: Iterable[bytes], options: SimilarityOptions) -> frozenset[int]:
    return frozenset(fp.hash for text in texts for fp in _subject("", False, text, options).prints)


def _pair(
    subjects: Sequence[_Subject],
    kept: Sequence[frozenset[int]],
    options: SimilarityOptions,
    a: int,
    b: int,
    shared: int,
) -> Pair:
    one, other = subjects[a], subjects[b]
    both = kept[a] & kept[b]
    return Pair(
        a=one.name,
        b=other.name,
        score=round(pair_score(shared, len(kept[a]), len(kept[b]), options.min_fingerprints), 4),
        a_share=round(shared / max(len(kept[a]), 1), 4),
        b_share=round(shared / max(len(kept[b]), 1), 4),
        shared=shared,
        regions=regions(one.prints, other.prints, both),
        archived=other.archived,
    )


def regions(
    a: Sequence[Fingerprint], b: Sequence[Fingerprint], shared: frozenset[int]
) -> tuple[Region, ...]:
    """The lines the shared fingerprints cover, in ``a``'s order, neighbours joined where
    they are neighbours on both sides (a reordered function is a region of its own)."""
    in_b: dict[int, Fingerprint] = {}
    for fp in b:
        if fp.hash in shared:
            in_b.setdefault(fp.hash, fp)
    found: list[Region] = []
    for fp in a:
        there = in_b.get(fp.hash)
        if there is None:
            continue
        last = found[-1] if found else None
        if (
            last is not None
            and fp.first_line <= last.a_last + 1
            and last.b_first - 1 <= there.first_line <= last.b_last + 1
        ):
            found[-1] = Region(
                last.a_first,
                max(last.a_last, fp.last_line),
                min(last.b_first, there.first_line),
                max(last.b_last, there.last_line),
            )
        else:
            found.append(Region(fp.first_line, fp.last_line, there.first_line, there.last_line))
    return tuple(found)


def clusters(pairs: Iterable[Pair], threshold: float) -> tuple[tuple[str, ...], ...]:
    """Groups of more than two linked by pairs from ``threshold`` on: connected components."""
    parent: dict[str, str] = {}

    def root(name: str) -> str:
        parent.setdefault(name, name)
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    for pair in pairs:
        if pair.score >= threshold:
            one, other = root(pair.a), root(pair.b)
            if one != other:
                parent[max(one, other)] = min(one, other)
    groups: dict[str, list[str]] = {}
    for name in list(parent):
        groups.setdefault(root(name), []).append(name)
    return tuple(sorted(tuple(sorted(g)) for g in groups.values() if len(g) > 2))


def _evidence_pairs(
    weigher: Weigher,
    wanted: set[tuple[str, str]],
    scored: dict[tuple[str, str], tuple[int, int, int]],
    subjects: Sequence[_Subject],
    kept: Sequence[frozenset[int]],
    options: SimilarityOptions,
) -> list[Pair]:
    by_name = {s.name: i for i, s in enumerate(subjects)}
    found = []
    for a, b in wanted:
        if a not in by_name or b not in by_name:
            continue  # in the gradebook, not among the submissions compared
        i, j, shared = scored.get((a, b), (by_name[a], by_name[b], 0))
        found.append(replace(_pair(subjects, kept, options, i, j, shared), evidence=None))
    weighed = [replace(p, evidence=weigher.evidence(p.a, p.b)) for p in found]
    weighed.sort(key=lambda p: (-(p.evidence.bits if p.evidence else 0.0), p.a, p.b))
    return weighed[:EVIDENCE_PAIRS]


def _sources(
    subjects: Sequence[_Subject], pairs: Iterable[Pair]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    shown = {name for p in pairs for name in (p.a, p.b)}
    return tuple(sorted((s.name, s.lines) for s in subjects if s.name in shown))
