"""``grade export``: a gradebook's scores into the teacher's LMS export, written to a new file
(atomically, never over the export or the gradebook it reads)."""

from __future__ import annotations

from pathlib import Path

from ..files import refuse_overwriting, write_atomically
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
