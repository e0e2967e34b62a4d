"""``grade compare``: two gradebooks of one class, and whose result moved between them.

Either side may be the JSON gradebook (``grade batch --json``, ``grade merge``), which holds each
case's verdict and message, or the CSV one (``--csv``), which holds each case's verdict only: a
message it cannot give is ``None``, never an empty string that would read as "said nothing".
A change is a score or a case's verdict that differs; a message alone that differs is not one
(it names times and outputs that move from run to run).
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from ..judging.errors import ExitCode, UsageError
from ..render.classbook import CSV_HEADER, FORMULA_START, cell
from ..render.rejudge_report import KIND
from .gradebook import Gradebook
from .sheet import Sheet, sheet_of


@dataclass(frozen=True)
class CaseResult:
    name: str
    verdict: str  # a Verdict's value
    message: str | None  # None: the gradebook does not carry it (CSV)
    points: float | None = None  # None: not carried (CSV)
    max_points: float | None = None


@dataclass(frozen=True)
class Row:
    """One submission as a gradebook file gives it."""

    submission: str
    score: float | None  # None: not judged (a grader error)
    problem: str  # why it has no score, or could not be graded ("" otherwise)
    cases: tuple[CaseResult, ...]
    points: float | None = None  # None: not judged, or not carried
    max_points: float | None = None

    def case(self, name: str) -> CaseResult | None:
        return next((c for c in self.cases if c.name == name), None)


@dataclass(frozen=True)
class Results:
    """A gradebook file read for comparing: its rows, and where it came from."""

    label: str
    exercise: str | None  # None: a CSV gradebook does not name it
    case_names: tuple[str, ...]
    rows: tuple[Row, ...]
    from_csv: bool = False  # its names as the CSV writes them (``as_in_csv``)
    interrupted: bool = False  # a batch stopped before every submission was graded (JSON only)


@dataclass(frozen=True)
class CaseChange:
    case: str
    old: str | None  # the verdict; None where the case was not graded on that side
    new: str | None
    message: str | None  # the new side's message, where it has one


@dataclass(frozen=True)
class Change:
    submission: str
    old_score: float | None
    new_score: float | None
    problem: str  # the new side's reason for no score ("" when it has one)
    cases: tuple[CaseChange, ...]
    expected: bool  # on the reviewed list (--expect)


@dataclass(frozen=True)
class Rejudging:
    exercise: str | None
    old: str
    new: str
    compared: int  # submissions on both sides
    changed: tuple[Change, ...]
    only_old: tuple[str, ...]
    only_new: tuple[str, ...]
    expected: frozenset[str] | None = None  # the reviewed list, when one was given

    @property
    def unexpected(self) -> tuple[str, ...]:
        """The submissions that moved (changed, gone or new) and are on no reviewed list."""
        moved = [c.submission for c in self.changed] + [*self.only_old, *self.only_new]
        allowed = self.expected or frozenset()
        return tuple(name for name in moved if name not in allowed)

    @property
    def expected_unchanged(self) -> tuple[str, ...]:
        """Names on the reviewed list whose result did not move (a stale list, said, not failed)."""
        moved = {c.submission for c in self.changed} | {*self.only_old, *self.only_new}
        return tuple(sorted((self.expected or frozenset()) - moved))

    @property
    def exit_code(self) -> ExitCode:
        """1 when a result moved that no reviewed list allows, so CI can gate a case change."""
        return ExitCode.FAILED if self.unexpected else ExitCode.OK


def read_results(path: Path) -> Results:
    """A JSON or CSV gradebook, told apart by its content; ``UsageError`` for anything else."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read gradebook {path}: {exc}") from exc
    if data.removeprefix(codecs.BOM_UTF8).lstrip().startswith(b"{"):
        return _from_book(str(path), Gradebook.load(path))
    return _from_csv(str(path), sheet_of(data, path))


def _from_book(label: str, book: Gradebook) -> Results:
    rows = tuple(
        Row(
            submission=e.submission,
            score=e.score,
            problem=e.problem,
            cases=()
            if e.feedback is None
            else tuple(
                CaseResult(c.name, c.verdict.value, c.message, c.points, c.max_points)
                for c in e.feedback.cases
            ),
            points=None if e.score is None else e.feedback.points if e.feedback else 0.0,
            max_points=None if e.feedback is None else e.feedback.max_points,
        )
        for e in book.entries
    )
    return Results(
        label, book.exercise, book.case_names, _unique(label, rows), interrupted=book.interrupted
    )


def _from_csv(label: str, sheet: Sheet) -> Results:
    # read as an LMS export is: a teacher may have opened the gradebook in a spreadsheet and
    # saved it (a byte order mark, UTF-16, tabs)
    table = [record.values for record in sheet.records]
    if not table or tuple(table[0][: len(CSV_HEADER)]) != CSV_HEADER:
        raise UsageError(f"{label} is not a grade gradebook (from grade batch --json or --csv)")
    header = table[0]
    case_names = tuple(_name(n) for n in header[len(CSV_HEADER) :])
    rows = []
    for number, fields in enumerate(table[1:], start=2):
        if not any(fields):  # a blank line (an editor's last one): no submission
            continue
        if len(fields) != len(header):
            raise UsageError(f"{label} is a damaged gradebook: line {number} has other columns")
        error = _name(fields[6])
        score, points, most = (_number(label, fields[i]) for i in (1, 2, 3))
        verdicts = fields[len(CSV_HEADER) :]
        cases = tuple(
            CaseResult(name, verdict, None)
            for name, verdict in zip(case_names, verdicts, strict=True)
            if verdict
        )
        rows.append(Row(_name(fields[0]), score, error, cases, points, most))
    return Results(label, None, case_names, _unique(label, rows), from_csv=True)


def _number(label: str, text: str) -> float | None:
    try:
        return float(text) if text else None
    except ValueError:
        raise UsageError(f"{label} is a damaged gradebook: number {text!r}") from None


def _name(cell: str) -> str:
    """A CSV cell's text as the gradebook was given it: the quote ``classbook.csv`` puts before
    a formula's first character taken away (a name that itself began with ``'=`` reads back
    without its quote; the JSON gradebook keeps every name exactly)."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_START) else cell


def as_in_csv(results: Results) -> Results:
    """A JSON gradebook's names as its CSV gives them back: the CSV writes a name as one line of
    plain text (``classbook.cell``: controls escaped), so a name holding an escape sequence
    reads back otherwise, and only its written form can match a CSV's."""
    if results.from_csv:
        return results

    def written(name: str) -> str:
        return _name(cell(name))

    rows = tuple(
        replace(
            row,
            submission=written(row.submission),
            cases=tuple(replace(c, name=written(c.name)) for c in row.cases),
        )
        for row in results.rows
    )
    names = tuple(written(n) for n in results.case_names)
    return replace(results, case_names=names, rows=_unique(results.label, rows), from_csv=True)


def _unique(label: str, rows: Iterable[Row]) -> tuple[Row, ...]:
    seen: set[str] = set()
    kept = []
    for row in rows:
        if row.submission in seen:
            raise UsageError(f"{label} holds submission {row.submission} twice")
        seen.add(row.submission)
        kept.append(row)
    return tuple(kept)


def rejudged(old: Results, new: Results, *, expected: frozenset[str] | None = None) -> Rejudging:
    """Every submission whose score or a case's verdict differs from ``old`` to ``new``; cases
    added or removed between them count (a verdict against none)."""
    if old.exercise is not None and new.exercise is not None and old.exercise != new.exercise:
        raise UsageError(
            f"cannot compare gradebooks of different exercises: {old.label} is {old.exercise}, "
            f"{new.label} is {new.exercise}"
        )
    for side in (old, new):  # its missing submissions would read as gone, and fail the gate
        if side.interrupted:
            raise UsageError(
                f"{side.label} is an interrupted batch (only the submissions graded before it "
                "stopped): finish it with `grade batch ... --resume` first"
            )
    if old.from_csv != new.from_csv:  # a name is matched as the CSV could write it
        old, new = as_in_csv(old), as_in_csv(new)
    before = {r.submission: r for r in old.rows}
    after = {r.submission: r for r in new.rows}
    names = list(dict.fromkeys([*old.case_names, *new.case_names]))
    changed = []
    for name in sorted(before.keys() & after.keys()):
        was, now = before[name], after[name]
        cases = tuple(
            CaseChange(case, _verdict(a), _verdict(b), None if b is None else b.message)
            for case in names
            for a, b in [(was.case(case), now.case(case))]
            if _verdict(a) != _verdict(b)
        )
        if cases or _score(was.score) != _score(now.score):
            allowed = expected is not None and name in expected
            changed.append(Change(name, was.score, now.score, now.problem, cases, allowed))
    return Rejudging(
        exercise=new.exercise or old.exercise,
        old=old.label,
        new=new.label,
        compared=len(before.keys() & after.keys()),
        changed=tuple(changed),
        only_old=tuple(sorted(before.keys() - after.keys())),
        only_new=tuple(sorted(after.keys() - before.keys())),
        expected=expected,
    )


def _verdict(case: CaseResult | None) -> str | None:
    return None if case is None else case.verdict


def _score(score: float | None) -> float | None:
    return None if score is None else round(score, 4)  # the CSV's precision


def read_expected(path: Path) -> frozenset[str]:
    """The reviewed list: the JSON ``grade compare --format json`` wrote (every name it lists
    as moved: any name, exactly), or a text file of one submission name per line."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the reviewed list {path}: {exc}") from exc
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
            if data.get("kind") != KIND:
                raise ValueError("not the JSON of grade compare")
            moved = [c["submission"] for c in data["changed"]]
            return frozenset(str(n) for n in [*moved, *data["only_old"], *data["only_new"]])
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            raise UsageError(f"{path} is not a reviewed list: {exc}") from exc
    return frozenset(line for line in text.splitlines() if line)
