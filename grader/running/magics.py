"""What of a notebook cell is IPython's and not Python's: magics, shell lines and help.

A notebook's code cell is IPython: ``%matplotlib inline``, ``!pip install numpy``,
``files = !ls``, ``np.mean?`` and a ``%%bash`` cell are no Python, and a script made of the cells
must leave them out. Each is found where IPython finds it, at the start of a statement: never
inside a string or brackets, so a docstring holding ``!important`` stays as written. None of
these forms is valid Python there, so no line of Python is ever taken for one.

A removed line becomes ``pass`` at its indentation (a block whose only line was ``!echo`` must
still have a body), its continuation lines blank: the cell keeps its number of lines, and a
line of the script is the same line of its cell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Cell magics whose body is Python that IPython runs (timed or captured): the first line goes,
# the body is graded. Any other (%%bash, %%writefile, %%html...) holds no Python: the cell goes.
PYTHON_BODIES = frozenset({"time", "timeit", "capture", "prun"})

# `files = !ls`, `a, b = %sx cmd`: an assignment from a shell line or a magic
_ASSIGNED = re.compile(r"[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*=\s*(?=[!%])")
# `np.mean?`, `obj??`, `np.*load*?`: help on a name, the question mark(s) after it
_HELP_AFTER = re.compile(r"[\w.*\[\]()]+\?{1,2}")
NAME_MOST = 40  # a removed line is named by its first word, at most this long


@dataclass(frozen=True)
class Stripped:
    """A code cell's lines with IPython's removed, and what was removed (each by its first
    word: ``%matplotlib``, ``!pip``, ``%%bash``, ``np.mean?``)."""

    lines: tuple[str, ...]
    removed: tuple[str, ...]
    whole: bool = False  # a cell magic whose body is not Python: the whole cell went


def strip_cell(lines: list[str]) -> Stripped:
    """``lines`` (one cell's, without line ends) with IPython's lines removed."""
    lines = _dedented(lines)
    first = next((line.strip() for line in lines if line.strip()), "")
    if first.startswith("%%"):
        name = _name(first)
        if name[2:] not in PYTHON_BODIES:
            return Stripped(tuple("" for _ in lines), (name,), whole=True)
    out: list[str] = []
    removed: list[str] = []
    scanner = _Scanner()
    joined = False  # the line before was a removed one, continued by its backslash
    for line in lines:
        if joined:
            out.append("")
            joined = line.endswith("\\")
            continue
        found = _ipython(line) if scanner.at_statement() else None
        if found is None:
            scanner.feed(line)
            out.append(line)
            continue
        body = line.lstrip()
        out.append(line[: len(line) - len(body)] + "pass")
        removed.append(found)
        joined = line.endswith("\\")
    return Stripped(tuple(out), tuple(removed))


def _dedented(lines: list[str]) -> list[str]:
    """As IPython runs a cell whose first line is indented (code pasted from inside a block):
    that line's indentation taken off every line that starts with it."""
    first = next((line for line in lines if line.strip()), "")
    indent = first[: len(first) - len(first.lstrip(" \t"))]
    if not indent:
        return lines
    return [line[len(indent) :] if line.startswith(indent) else line for line in lines]


def _ipython(line: str) -> str | None:
    """The name of the IPython form ``line`` is (at a statement's start), or None for Python."""
    body = line.strip()
    if body.startswith(("%", "!", "?")):
        return _name(body)
    assigned = _ASSIGNED.match(body)
    if assigned is not None:
        return _name(body[assigned.end() :])
    if _HELP_AFTER.fullmatch(body):
        return _name(body)
    return None


def _name(body: str) -> str:
    word = body.split(maxsplit=1)[0] if body.split() else body
    return word if len(word) <= NAME_MOST else word[: NAME_MOST - 1] + "…"


class _Scanner:
    """Whether the next line starts a statement: not inside a string that spans lines, nor
    inside brackets, nor after a backslash that joins it to the line before. As much of
    Python's tokenizer as that takes, and no more (no line is ever rejected here: the compile
    check says what is wrong with a cell)."""

    def __init__(self) -> None:
        self.quote: str | None = None  # the closing quote of a string still open
        self.depth = 0
        self.joined = False

    def at_statement(self) -> bool:
        return self.quote is None and self.depth == 0 and not self.joined

    def feed(self, line: str) -> None:
        i, n = 0, len(line)
        comment = False
        while i < n:
            if self.quote is not None:
                i = self._close(line, i)
                if i < 0:
                    return
                continue
            ch = line[i]
            if ch == "#":
                comment = True
                break
            if ch in "\"'":
                triple = line[i : i + 3]
                self.quote = triple if triple in ('"""', "'''") else ch
                i += len(self.quote)
                continue
            if ch in "([{":
                self.depth += 1
            elif ch in ")]}":
                self.depth = max(0, self.depth - 1)
            i += 1
        self.joined = not comment and line.endswith("\\")

    def _close(self, line: str, i: int) -> int:
        """Past the open string's end on ``line`` from ``i``, or -1 where it goes on."""
        assert self.quote is not None
        n = len(line)
        while i < n:
            if line[i] == "\\":
                i += 2
                continue
            if line.startswith(self.quote, i):
                i += len(self.quote)
                self.quote = None
                return i
            i += 1
        if len(self.quote) == 1 and not line.endswith("\\"):
            self.quote = None  # a one-line string left open: the compiler's to say, not ours
        self.joined = False
        return -1
