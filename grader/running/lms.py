"""``grade export``: a class's scores written into the teacher's own gradebook export of an LMS
(Canvas, Moodle, Blackboard), the path each LMS documents for grades from elsewhere: download,
fill a column, upload. The export is read with ``sheet.py`` and written back with only the
filled cells (and any per-case columns) new, so the LMS reads every other row as it wrote it.

What each LMS's export looks like is data (``FORMATS``); the sources are cited in
docs/classes.md.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from ..judging.errors import ExitCode, UsageError
from ..render.classbook import FORMULA_START, cell
from .rejudge import Results, Row
from .sheet import Sheet


@dataclass(frozen=True)
class LmsFormat:
    """One LMS's gradebook export: the columns it always has, the column that names a student
    by default, and how an assignment's column says its name and its maximum."""

    required: tuple[str, ...]
    key: str  # the default --match-column
    title: Callable[[str], str]  # a column's assignment name, for --column NAME
    maximum: Callable[[Sheet, int], float | None]  # a column's points possible, if it says
    student: Callable[[Sheet, int], bool]  # whether a record (after the header) is a student


def _canvas_title(header: str) -> str:
    return re.sub(r"\s*\(\d+\)$", "", header)  # "Quiz 1 (1234)": the id Canvas adds


def _canvas_points(sheet: Sheet, column: int) -> float | None:
    for record in sheet.records[1:]:
        values = record.values
        if values and values[0].strip() == "Points Possible" and column < len(values):
            if "read only" in values[column]:
                raise UsageError(
                    f"{sheet.header[column]!r} is read only in Canvas (a total or a group): "
                    "Canvas ignores it on import; name an assignment's column"
                )
            return _positive(values[column].strip())
    return None


def _canvas_student(sheet: Sheet, number: int) -> bool:
    values = sheet.records[number].values
    # the Points Possible row (and a posting-policy row) has no ID; "Student, Test" is the
    # test student Canvas adds to every course for its "Student View"
    return len(values) > 1 and values[1].strip() != "" and values[0].strip() != "Student, Test"


def _moodle_title(header: str) -> str:
    match = re.fullmatch(r"[^:]+: (.*) \([^()]*\)", header)  # "Assignment: NAME (Real)"
    return match.group(1) if match else header


def _blackboard_title(header: str) -> str:
    return header.split(" [Total Pts:", 1)[0]  # "NAME [Total Pts: 100 Score] |12345"


def _blackboard_points(sheet: Sheet, column: int) -> float | None:
    match = re.search(r"\[Total Pts: (?:up to )?([0-9.]+) ", sheet.header[column])
    return _positive(match.group(1)) if match else None


def _positive(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value > 0 else None


def _any_row(sheet: Sheet, number: int) -> bool:
    return sheet.records[number].values != ("",)  # a blank line is no student


class Lms(Enum):
    CANVAS = "canvas"
    MOODLE = "moodle"
    BLACKBOARD = "blackboard"


FORMATS: Mapping[Lms, LmsFormat] = {
    Lms.CANVAS: LmsFormat(
        ("Student", "ID", "SIS User ID", "SIS Login ID", "Section"),
        "SIS Login ID",
        _canvas_title,
        _canvas_points,
        _canvas_student,
    ),
    Lms.MOODLE: LmsFormat(
        ("First name", "Last name"), "Email address", _moodle_title, lambda s, c: None, _any_row
    ),
    Lms.BLACKBOARD: LmsFormat(
        ("Last Name", "First Name", "Username"),
        "Username",
        _blackboard_title,
        _blackboard_points,
        _any_row,
    ),
}


@dataclass(frozen=True)
class ExportOptions:
    lms: Lms
    column: str
    match_column: str | None = None  # else the LMS's usual key (FORMATS)
    pairs: Mapping[str, str] | None = None  # --map: submission name -> the roster's value
    max_points: float | None = None  # where the export says no maximum
    case_columns: bool = False
    allow_unmatched: bool = False


@dataclass(frozen=True)
class Export:
    data: bytes  # the filled export
    column: str
    maximum: float | None  # points possible the scores were scaled to (None: the points)
    filled: int
    not_graded: tuple[str, ...]  # grader errors: left empty, never a 0
    unmatched_submissions: tuple[str, ...]
    unmatched_students: tuple[str, ...]  # roster rows, by their key and row number
    allowed: bool  # --allow-unmatched

    @property
    def complete(self) -> bool:
        return not (self.unmatched_submissions or self.unmatched_students)

    @property
    def exit_code(self) -> ExitCode:
        if not (self.complete or self.allowed):
            return ExitCode.FAILED
        return ExitCode.GRADER_ERROR if self.not_graded else ExitCode.OK


def fill(sheet: Sheet, results: Results, options: ExportOptions) -> Export:
    """The export with ``options.column`` filled from ``results``; the lists of who matched no
    one either way."""
    lms = FORMATS[options.lms]
    header = sheet.header
    missing = [c for c in lms.required if c not in header]
    if missing:
        raise UsageError(
            f"this is not a {options.lms.value} gradebook export: no column {', '.join(missing)}"
        )
    target = _column(header, options.column, lms)
    key_name = options.match_column or lms.key
    if key_name not in header:
        raise UsageError(f"no column {key_name!r} to match students by: {_listed(header)}")
    if header[target] in (*lms.required, key_name):
        raise UsageError(f"{header[target]!r} names the students: name an assignment's column")
    key = header.index(key_name)
    maximum = _maximum(lms.maximum(sheet, target), options.max_points, header[target])
    students = [n for n in range(1, len(sheet.records)) if lms.student(sheet, n)]
    roster: dict[str, int] = {}
    for n in students:
        value = _key(_value(sheet, n, key))
        if value in roster and value:
            raise UsageError(f"{key_name} {_value(sheet, n, key)!r} is on two rows of the export")
        if value:
            roster[value] = n
    changed: dict[tuple[int, int], str] = {}
    unmatched: list[str] = []
    not_graded: list[str] = []
    matched: dict[int, Row] = {}
    for row in results.rows:
        wanted = row.submission if options.pairs is None else options.pairs.get(row.submission)
        number = None if wanted is None else roster.get(_key(wanted))
        if number is None:
            unmatched.append(row.submission)
            continue
        if number in matched:
            raise UsageError(
                f"{matched[number].submission!r} and {row.submission!r} both match row "
                f"{number + 1} of the export ({_value(sheet, number, key)!r})"
            )
        matched[number] = row
        if row.score is None:
            not_graded.append(row.submission)
        changed[number, target] = _points(row, maximum)
    left = tuple(f"{_value(sheet, n, key)} (row {n + 1})" for n in students if n not in matched)
    _neutralise(sheet, changed)
    added = (
        _case_columns(sheet, results, matched, header[target], lms)
        if options.case_columns
        else None
    )
    return Export(
        data=sheet.written(changed, added),
        column=header[target],
        maximum=maximum,
        filled=len(matched) - len(not_graded),
        not_graded=tuple(not_graded),
        unmatched_submissions=tuple(unmatched),
        unmatched_students=left,
        allowed=options.allow_unmatched,
    )


def _value(sheet: Sheet, number: int, column: int) -> str:
    values = sheet.records[number].values
    return values[column] if column < len(values) else ""  # a short row: an empty cell


def _key(value: str) -> str:
    return value.strip().casefold()  # "JDoe@uni.edu " is jdoe@uni.edu


def _column(header: Sequence[str], wanted: str, lms: LmsFormat) -> int:
    if wanted in header:
        return header.index(wanted)
    named = [i for i, h in enumerate(header) if lms.title(h) == wanted]
    if len(named) == 1:
        return named[0]
    why = "more than one column is" if named else "no column is"
    raise UsageError(f"{why} named {wanted!r}; the columns are {_listed(header)}")


def _listed(header: Sequence[str]) -> str:
    return ", ".join(repr(h) for h in header)


def _maximum(said: float | None, given: float | None, column: str) -> float | None:
    if said is not None and given is not None and not math.isclose(said, given):
        raise UsageError(f"{column!r} is out of {said:g} points, not --max-points {given:g}")
    return said if said is not None else given


def _points(row: Row, maximum: float | None) -> str:
    """The cell for a row: points of the column's maximum, else the gradebook's own points;
    empty where the grader failed (never a 0 for a run it never judged)."""
    if row.score is None:
        return ""
    value = row.score * maximum if maximum is not None else (row.points or 0.0)
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _neutralise(sheet: Sheet, changed: dict[tuple[int, int], str]) -> None:
    """Every other cell of a student's row that a spreadsheet would run as a formula (a display
    name set to ``=HYPERLINK(...)``) written as text, as the gradebook's own CSV writes names;
    a number or a lone "-" (Moodle's "no grade") is data. The header is the teacher's (the
    assignments' names) and the LMS finds its columns by it: kept as it is."""
    for number, record in enumerate(sheet.records[1:], start=1):
        for index, f in enumerate(record.fields):
            if (number, index) in changed or not f.value.startswith(FORMULA_START):
                continue
            if f.value.strip() == "-" or _is_number(f.value):
                continue
            changed[number, index] = cell(f.value)


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def _case_columns(
    sheet: Sheet, results: Results, matched: Mapping[int, Row], column: str, lms: LmsFormat
) -> dict[int, list[str]]:
    names = results.case_names
    if any(r.cases and r.cases[0].points is None for r in results.rows):
        raise UsageError("per-case columns need the JSON gradebook (grade batch --json)")
    title = lms.title(column)
    added: dict[int, list[str]] = {0: [cell(f"{title}: {n}") for n in names]}
    for number in range(1, len(sheet.records)):
        row = matched.get(number)
        cells = []
        for name in names:
            case = row.case(name) if row is not None and row.score is not None else None
            cells.append("" if case is None or case.points is None else f"{case.points:g}")
        added[number] = cells
    return added
