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


# What a report copies of a case, at most: a student's output or traceback can be megabytes,
# which GitLab and Gradescope refuse as a report and a class's gradebook repeats per student.
MESSAGE_MOST = 2_000  # characters of a one-line message (a crash's last line of stderr)
TEXT_MOST = 16_000  # of each of a case's input, expected output, output and stderr
LINE_MOST = 4_000  # of a mismatch's expected and printed line


def clip(text: str, most: int) -> str:
    """``text`` if it is at most ``most`` characters, else its head and its tail with what was
    cut between them said: where output ends (a traceback's last line) matters as much as
    where it starts."""
    if len(text) <= most:
        return text
    tail = most // 3
    head = most - tail
    return f"{text[:head]} … {len(text) - head - tail} characters cut … {text[-tail:]}"


def last_line(text: str) -> str:
    """The last non-blank line, stripped: where a traceback names its exception."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice ``word`` most likely misspells, for a "did you mean"; None if none is close."""
    found = difflib.get_close_matches(word, list(choices), n=1)
    return found[0] if found else None


INPUT_LINES = 6  # of a case's input, as every report and the practice page show it


def line_count(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"


def lines_kept(count: int, most: int) -> int:
    """How many of ``count`` lines to show where ``most`` fit: all of them when only one would
    be left out, since "… (1 line more)" takes the room of the line itself."""
    return count if count <= most + 1 else most


def head_lines(text: str, most: int) -> str:
    """``text``'s first lines as a report shows them, with how many more were left out."""
    lines = text.splitlines() or [""]
    kept = lines_kept(len(lines), most)
    more = len(lines) - kept
    return "\n".join(lines[:kept]) + (f"\n… ({line_count(more)} more)" if more > 0 else "")
