"""A Jupyter notebook graded as the script its code cells make, in order.

Read as JSON with the standard library (no kernel is run, and no ``nbformat``: its schema
validation is what breaks on the cell metadata students delete or duplicate). Of each cell only
its type and source are read: outputs, metadata, ids and execution counts play no part, so a
cell whose metadata was deleted, or a cell duplicated with its id, grades as the same code
would in a .py. IPython's own lines are removed (``magics``). Cells are numbered as the student
sees them in Jupyter: by position among all cells, markdown included, from 1; lines within a
cell from 1. ``CellMap`` takes a line of the script back to its cell and line, for the
tracebacks and compile errors a report shows.
"""

from __future__ import annotations

import bisect
import functools
import json
import re
from dataclasses import dataclass

from .magics import strip_cell

NOTICE_MOST = 300  # the removal notice's length at most: 10,000 magics are one line still


class NotANotebook(ValueError):
    """The file is not a notebook the grader can read; the message says why, for the student."""


@dataclass(frozen=True)
class Span:
    """One code cell's lines in the script: from line ``first`` (1-based), ``count`` lines."""

    first: int
    count: int
    cell: int  # as Jupyter shows it to the student: its position among all cells, from 1


@dataclass(frozen=True)
class Removal:
    """An IPython line (or cell) removed: its first word, and the cell it was in."""

    what: str
    cell: int
    whole_cell: bool = False


@dataclass(frozen=True)
class CellMap:
    """Where each line of a notebook's script came from, and what IPython lines were left out."""

    spans: tuple[Span, ...]
    removed: tuple[Removal, ...] = ()

    @functools.cached_property
    def _firsts(self) -> list[int]:  # once: a student's stderr may hold a million "lines"
        return [s.first for s in self.spans]

    def where(self, line: int) -> tuple[int, int] | None:
        """(cell, line in it) of the script's ``line``; None for no cell's (past the end)."""
        at = bisect.bisect_right(self._firsts, line) - 1
        if at < 0 or line >= self.spans[at].first + self.spans[at].count:
            return None
        span = self.spans[at]
        return span.cell, line - span.first + 1

    def relabel(self, text: str, shown: str) -> str:
        """``text`` (a traceback, a compile error, warnings) with each line of the script
        ``shown`` named by its cell: ``File "work.ipynb", cell 4, line 2`` for ``line 37``."""
        name = re.escape(shown)
        frames = re.compile(rf'(File "{name}", )line (\d+)')
        text = frames.sub(lambda m: self._said(m, m[1] + "{}", int(m[2])), text)
        warned = re.compile(rf"^({name}):(\d+): ", re.MULTILINE)  # warnings.formatwarning's
        return warned.sub(lambda m: self._said(m, m[1] + ", {}: ", int(m[2])), text)

    def relabel_compile_error(self, text: str, shown: str) -> str:
        """A compile error's lines relabelled, and its message's "on line 3" (the compiler's
        "expected an indented block after 'if' statement on line 3") said as the cell's."""
        text = self.relabel(text, shown)
        body, _, last = text.rstrip("\n").rpartition("\n")
        last = re.sub(r"\bon line (\d+)\b", lambda m: self._said(m, "in {}", int(m[1])), last)
        return f"{body}\n{last}\n" if body else f"{last}\n"

    def _said(self, found: re.Match[str], form: str, line: int) -> str:
        """``form`` with the cell and line of the script's ``line``; what ``found`` matched
        where that line is no cell's."""
        where = self.where(line)
        return found[0] if where is None else form.format(f"cell {where[0]}, line {where[1]}")

    def notice(self) -> str | None:
        """One line naming what was removed and where, or None if nothing was."""
        if not self.removed:
            return None
        cells: dict[tuple[str, bool], list[int]] = {}
        for r in self.removed:
            cells.setdefault((r.what, r.whole_cell), []).append(r.cell)
        named = []
        for (name, whole), where in cells.items():
            distinct = sorted(set(where))
            label = "cell" if len(distinct) == 1 else "cells"
            whole_cells = f", the whole {label}" if whole else ""
            named.append(f"{name} ({label} {', '.join(map(str, distinct))}{whole_cells})")
        line = "IPython lines left out (not Python): " + "; ".join(named)
        return line if len(line) <= NOTICE_MOST else line[: NOTICE_MOST - 1] + "…"


def notebook_script(data: bytes) -> tuple[bytes, CellMap]:
    """The script a notebook's code cells make, in order, and where its lines came from; or
    ``NotANotebook`` saying, for the student, why the file is not one."""
    try:
        found = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise NotANotebook("is not UTF-8 text") from None
    except RecursionError:
        raise NotANotebook("is not a notebook: its JSON is nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, an integer of 5,000 digits
        raise NotANotebook(f"is not a notebook: not valid JSON ({_short(exc)})") from None
    lines: list[str] = []
    spans: list[Span] = []
    removed: list[Removal] = []
    for number, cell in enumerate(_cells(found), start=1):
        source = _code(cell, number)
        if source is None:
            continue
        stripped = strip_cell(_lines(source))
        removed += [Removal(what, number, stripped.whole) for what in stripped.removed]
        if stripped.lines:
            spans.append(Span(len(lines) + 1, len(stripped.lines), number))
            lines.extend(stripped.lines)
    script = "".join(f"{line}\n" for line in lines)
    return script.encode("utf-8"), CellMap(tuple(spans), tuple(removed))


def _short(exc: ValueError) -> str:
    text = str(exc)
    return text if len(text) <= 80 else text[:79] + "…"


def _cells(found: object) -> list[object]:
    """The cells in order: nbformat 4's ``cells``, or nbformat 3's worksheets' cells."""
    if not isinstance(found, dict):
        raise NotANotebook("is not a notebook: its JSON is not an object with cells")
    cells = found.get("cells")
    if cells is None and isinstance(found.get("worksheets"), list):  # nbformat 3
        cells = []
        for sheet in found["worksheets"]:
            if not isinstance(sheet, dict) or not isinstance(sheet.get("cells"), list):
                raise NotANotebook("is not a notebook: a worksheet holds no list of cells")
            cells += sheet["cells"]
    if not isinstance(cells, list):
        raise NotANotebook("is not a notebook: its JSON has no list of cells")
    return cells


def _code(cell: object, number: int) -> str | None:
    """A code cell's source (nbformat 3 calls it ``input``), None for any other cell."""
    if not isinstance(cell, dict):
        raise NotANotebook(f"is not a notebook: cell {number} is not an object")
    if cell.get("cell_type") != "code":
        return None  # markdown, raw, nbformat 3's heading: not graded
    source = cell.get("source", cell.get("input", ""))
    if isinstance(source, list) and all(isinstance(part, str) for part in source):
        source = "".join(source)
    if not isinstance(source, str):
        raise NotANotebook(f"is not a notebook Jupyter opens: cell {number}'s source is not text")
    if "\0" in source:
        raise NotANotebook(f"holds a NUL character in cell {number}: not Python")
    try:
        source.encode("utf-8")
    except UnicodeEncodeError:
        raise NotANotebook(f"holds text that is not UTF-8 in cell {number}") from None
    return source


def _lines(source: str) -> list[str]:
    """A cell's lines, split where Python's tokenizer splits them (not at form feeds or
    U+2028, as ``str.splitlines`` would), without a last empty one."""
    lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines
