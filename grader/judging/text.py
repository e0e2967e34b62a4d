"""Reading text a program printed: bytes that may be anything, turned into what we show."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def decode(data: bytes) -> str:
    """Program output is data: invalid UTF-8 must neither crash the grader nor hide the rest."""
    return data.decode("utf-8", errors="replace")


def path_text(path: object) -> str:
    """A path (or a name from one) as text for a report or a log: a file name's bytes that are
    not UTF-8 (a Latin-1 or CP437 zip's) shown as escapes (``bob\\xff.py``), never carried
    along as the surrogates Python reads them into, which no UTF-8 writer takes."""
    text = str(path)
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def last_line(text: str) -> str:
    """The last non-blank line, stripped: where a traceback names its exception."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice ``word`` most likely misspells, for a "did you mean"; None if none is close."""
    found = difflib.get_close_matches(word, list(choices), n=1)
    return found[0] if found else None
