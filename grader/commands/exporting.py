"""``grade export``: a gradebook's scores into the teacher's LMS export, written to a new file
(atomically, never over the export or the gradebook it reads)."""

from __future__ import annotations

from pathlib import Path

from ..files import refuse_overwriting, write_atomically
from ..judging.errors import UsageError
from ..running.lms import Export, ExportOptions, fill
from ..running.rejudge import read_results
from ..running.sheet import read_sheet


def export_scores(gradebook: Path, roster: Path, out: Path, options: ExportOptions) -> Export:
    """Fill the export's column; write ``out`` unless someone on either side matched no one
    and ``options.allow_unmatched`` does not allow it (the lists say who)."""
    refuse_overwriting([out], [gradebook, roster], "an input of grade export")
    done = fill(read_sheet(roster), read_results(gradebook), options)
    if done.complete or done.allowed:
        write_atomically(out, done.data)
    return done


def read_pairs(path: Path) -> dict[str, str]:
    """``--map``: a CSV of two columns, the submission's name and the roster's value, after a
    header row; ``UsageError`` for a name given twice. Read as the roster is (``read_sheet``):
    the same spreadsheet saves both, in the same encoding and with the same separator."""
    try:
        rows = [record.values for record in read_sheet(path).records]
    except UsageError as exc:  # which of the command's three files: this one
        raise UsageError(f"--map: {exc}") from None
    pairs: dict[str, str] = {}
    for number, row in enumerate(rows, start=1):
        if number == 1 or not any(row):
            continue
        if len(row) != 2:
            raise UsageError(f"{path}, line {number}: a map row is two cells, submission,value")
        if row[0] in pairs:
            raise UsageError(f"{path}, line {number}: {row[0]!r} is mapped twice")
        pairs[row[0]] = row[1]
    return pairs
