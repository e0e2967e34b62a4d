"""Fingerprints of a token stream: hashes of its k-grams, thinned by winnowing.

Winnowing (Schleimer, Wilkerson and Aiken, 2003) keeps the smallest hash of every window of
``window`` consecutive k-grams, so any run of at least ``k + window - 1`` tokens that two
submissions share yields at least one fingerprint they share, whatever surrounds it. The hash
is blake2b of the k-gram's symbols: Python's own ``hash`` of a string is salted per process,
and a report must rank the same class the same way on every run and machine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from .tokens import Token

_SEPARATOR = "\x1f"  # no symbol holds it: ("ab", "c") and ("a", "bc") hash apart


@dataclass(frozen=True)
class Fingerprint:
    """A kept k-gram hash, where its tokens start in the stream, and the source lines they
    span (1-based, both included)."""

    hash: int
    position: int
    first_line: int
    last_line: int


def stable_hash(symbols: Sequence[str]) -> int:
    digest = hashlib.blake2b(_SEPARATOR.join(symbols).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def kgram_hashes(tokens: Sequence[Token], k: int) -> list[int]:
    """The hash of every k-gram; a stream shorter than ``k`` is one gram of what there is."""
    texts = [t.text for t in tokens]
    if not texts:
        return []
    if len(texts) < k:
        return [stable_hash(texts)]
    return [stable_hash(texts[i : i + k]) for i in range(len(texts) - k + 1)]


def winnow(tokens: Sequence[Token], k: int, window: int) -> tuple[Fingerprint, ...]:
    """The fingerprints of ``tokens``: in each window of hashes, the smallest (the rightmost of
    equal ones), each kept once however many windows choose it."""
    hashes = kgram_hashes(tokens, k)
    if not hashes:  # nothing but comments and blank lines: nothing of it to share
        return ()
    span = min(k, len(tokens))
    chosen: list[int] = []
    last = -1
    for start in range(max(len(hashes) - window + 1, 1)):
        part = hashes[start : start + window]
        low = min(part)
        # the rightmost minimum: a window that slides on keeps the same choice, so fewer are kept
        pick = start + len(part) - 1 - part[::-1].index(low)
        if pick != last:
            chosen.append(pick)
            last = pick
    return tuple(
        Fingerprint(
            hashes[i], i, tokens[i].first_line, tokens[min(i + span, len(tokens)) - 1].last_line
        )
        for i in chosen
    )
