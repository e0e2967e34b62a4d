"""A class's dashboard page and each submission's HTML report beside it: written by ``grade
batch --dashboard/--reports`` as the class is graded, or by ``grade dashboard`` from a
gradebook it wrote earlier."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import quote

from ..files import write_atomically
from ..judging.errors import UsageError
from ..render.dashboard import render_dashboard
from ..render.html import render_html
from ..running.gradebook import Gradebook

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def report_name(submission: str) -> str:
    """The file a submission's HTML report is written to: its name in letters, digits and
    ``._-`` (nothing a shell, a URL or a file system reads otherwise), and a digest of the
    whole name, so that two names that differ only elsewhere never share a file."""
    plain = _UNSAFE.sub("_", submission).strip("._")[:60] or "submission"
    digest = hashlib.sha256(submission.encode("utf-8", "surrogateescape")).hexdigest()[:10]
    return f"{plain}-{digest}.html"


def write_reports(book: Gradebook, folder: Path) -> dict[str, Path]:
    """Each graded submission's HTML report into ``folder`` (made if missing): name to file."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot make the reports folder {folder}: {exc.strerror}") from exc
    written = {}
    for entry in book.entries:
        if entry.feedback is not None:
            path = folder / report_name(entry.submission)
            write_atomically(path, render_html(entry.feedback), durable=False)
            written[entry.submission] = path
    return written


def found_reports(book: Gradebook, folder: Path) -> dict[str, Path]:
    """The reports an earlier ``--reports`` run left in ``folder``, by submission."""
    paths = {e.submission: folder / report_name(e.submission) for e in book.entries}
    return {name: path for name, path in paths.items() if path.is_file()}


def links(page: Path, reports: Mapping[str, Path]) -> dict[str, str]:
    """Each report's URL relative to ``page``'s folder, so that the two move together (a CI
    artifact, a shared folder)."""
    base = page.resolve().parent
    return {
        name: quote(Path(os.path.relpath(path.resolve(), base)).as_posix())
        for name, path in reports.items()
    }


def write_dashboard(
    book: Gradebook, page: Path, *, reports: Mapping[str, Path], anonymize: bool
) -> None:
    text = render_dashboard(book, anonymize=anonymize, reports=links(page, reports))
    write_atomically(page, text)


def dashboard_from(
    gradebook: Path, page: Path, *, reports_dir: Path | None, anonymize: bool
) -> Gradebook:
    """``grade dashboard``: the page of a gradebook written earlier (a batch's --json, or a
    merge's), linking the reports found in ``reports_dir``."""
    if page.resolve() == gradebook.resolve():
        raise UsageError(f"{page} is the gradebook; write the dashboard to another file")
    book = Gradebook.load(gradebook)
    reports = found_reports(book, reports_dir) if reports_dir is not None else {}
    write_dashboard(book, page, reports=reports, anonymize=anonymize)
    return book
