"""Whether a title, a hint or a known mistake reads whole, or was cut off mid-sentence.

One rule, kept simple (a table test is ``tests/test_wording.py``): a text that ends with
sentence punctuation (``.``, ``!``, ``?``, an ellipsis, before any closing quote or bracket)
is whole. Otherwise a sentence (a hint, a mistake) is cut off, and so is a title that ends
with a comma, a colon, a dash or a word that cannot end a phrase ("the", "a", "and", "of" ...).
"""

from __future__ import annotations

import re

# words a phrase cannot end with: articles, conjunctions, prepositions, a few auxiliaries
DANGLING = frozenset(
    {"a", "an", "the", "and", "or", "but", "nor", "of", "to", "in", "on", "at", "by", "for"}
    | {"from", "with", "into", "as", "than", "that", "which", "who", "is", "are", "was", "be"}
    | {"its", "their", "your", "his", "her", "if", "then", "so", "not"}
)
CLOSERS = "\"')]}`*\u00bb\u201d\u2019"  # and the closing guillemet and quotes
SENTENCE_ENDS = (".", "!", "?", "\u2026")  # and …
BROKEN_ENDS = ",;:-(/&\u2013\u2014"  # and the en and em dashes
_LAST_WORD = re.compile(r"([A-Za-z]+)\W*$")


def cut_off(text: str, *, sentence: bool) -> str | None:
    """Why ``text`` reads as cut off, or None when it reads whole. ``sentence``: it must end
    one (a hint, a mistake); else it is a title, a phrase."""
    core = text.rstrip().rstrip(CLOSERS).rstrip()
    if not core:
        return "is empty"
    if core.endswith(SENTENCE_ENDS):
        return None
    if core[-1] in BROKEN_ENDS:
        return f"ends with {core[-1]!r}"
    found = _LAST_WORD.search(core)
    if found is not None and found.group(1).lower() in DANGLING:
        return f"ends with {found.group(1)!r}"
    if sentence:
        return "does not end with . ! or ?"
    return None
