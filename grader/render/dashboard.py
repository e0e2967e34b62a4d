"""A class at a glance, as one self-contained page (``grade batch --dashboard``, ``grade
dashboard``): the score histogram, each case's pass rate, the known mistakes each case's
outputs matched and how often, each case's time and peak memory (median and most), and a row
per submission with a link to its own report where one was written.

No script and no network (the page's Content-Security-Policy forbids both): it works opened
from a CI artifact. Every name a student controls goes through the HTML report's encoder.
"""

from __future__ import annotations

import hashlib
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..judging.records import CaseFeedback, Verdict
from .html import html_text, page_head
from .score import BUCKETS, bucket_label, score_words
from .score import histogram as bars

if TYPE_CHECKING:
    from ..running.gradebook import Entry, Gradebook

_CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin-top: 1.5em; }
.sub, .note { color: #666; font-weight: normal; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { text-align: left; padding: .2em .8em .2em 0; vertical-align: top; }
th { color: #666; font-weight: normal; border-bottom: 1px solid #ddd; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.bar { display: inline-block; height: .9em; background: #4a7fb5; vertical-align: middle; }
.rate { display: inline-block; width: 8em; background: #eee; }
.rate .bar { background: #17772b; }
ul.mistakes { margin: 0; padding-left: 1.2em; }
"""


@dataclass(frozen=True)
class CaseColumn:
    """What the class did on one case: the graded submissions that ran it, the passes, the
    known mistakes matched (id to how many submissions), and the times and peak memories the
    reports show (a hidden case's are not shown: none)."""

    name: str
    ran: int
    passed: int
    mistakes: tuple[tuple[str, int], ...]  # most common first
    times: tuple[float, ...]
    peaks_mb: tuple[float, ...]
    memory_mb: int | None


def case_columns(book: Gradebook) -> tuple[CaseColumn, ...]:
    """Each case of the class, over the submissions the grader judged."""
    graded = book.judged
    columns = []
    for name in book.case_names:
        cases = [c for f in graded for c in f.cases if c.name == name]
        mistakes = Counter(c.diagnosis.mistake for c in cases if c.diagnosis is not None)
        columns.append(
            CaseColumn(
                name=name,
                ran=len(cases),
                passed=sum(c.passed for c in cases),
                mistakes=tuple(sorted(mistakes.items(), key=lambda kv: (-kv[1], kv[0]))),
                times=tuple(c.time_s for c in cases if _timed(c)),
                peaks_mb=tuple(c.peak_mb for c in cases if c.peak_mb is not None),
                memory_mb=next((c.memory_mb for c in cases if c.memory_mb), None),
            )
        )
    return tuple(columns)


def _timed(c: CaseFeedback) -> bool:
    return c.details_shown and c.verdict is not Verdict.SKIPPED and c.time_s > 0


def histogram(book: Gradebook) -> list[int]:
    """How many submissions scored in each tenth, 0-0.1 first (1.0 in the last)."""
    return bars(e.score for e in book.entries)


def rows(book: Gradebook, *, anonymize: bool) -> list[tuple[Entry, str]]:
    """Each row and the name the page shows for it: its own, in the book's order; or
    ``submission N`` in the order of a digest of the names, since the book's order is the
    names' and a roster would give them back."""
    if not anonymize:
        return [(e, e.submission) for e in book.entries]
    order = sorted(
        book.entries,
        key=lambda e: hashlib.blake2b(e.submission.encode("utf-8", "surrogateescape")).digest(),
    )
    width = len(str(len(order)))
    return [(e, f"submission {i:0{width}d}") for i, e in enumerate(order, start=1)]


def render_dashboard(
    book: Gradebook, *, anonymize: bool = False, reports: Mapping[str, str] | None = None
) -> str:
    """The page. ``reports``: a submission's name to the URL of its HTML report, relative to
    the page; left out when anonymised (a report names its student)."""
    links = {} if anonymize else dict(reports or {})
    graded = book.judged
    title = f"{book.exercise}: {len(book.entries)} submissions, {len(graded)} graded"
    return f"""{page_head(title, _CSS)}
</head>
<body>
<h1>{html_text(book.exercise)} <span class="sub">· the class</span></h1>
<p class="summary">{html_text(title)}{_interrupted(book)}</p>
<h2>Scores</h2>
{_histogram(histogram(book))}
<h2>Cases</h2>
{_cases(case_columns(book))}
<h2>Submissions</h2>
{_submissions(rows(book, anonymize=anonymize), links, anonymize=anonymize)}
</body>
</html>
"""


def _interrupted(book: Gradebook) -> str:
    if not book.interrupted:
        return ""
    return " (interrupted: the submissions graded before it stopped)"


def _histogram(counts: Sequence[int]) -> str:
    most = max(counts, default=0) or 1
    rows = []
    for i in reversed(range(BUCKETS)):
        label = bucket_label(i)
        width = round(100 * counts[i] / most)
        bar = f'<span class="bar" style="width: {width * 0.2:.1f}em"></span>'
        rows.append(f'<tr><td>{label}</td><td class="n">{counts[i]}</td><td>{bar}</td></tr>')
    head = "<tr><th>score</th><th>submissions</th><th></th></tr>"
    return f'<table class="histogram">{head}{"".join(rows)}</table>'


def _figures(values: Sequence[float], unit: str) -> tuple[str, str]:
    if not values:
        return "-", "-"
    fmt = "{:.2f} s" if unit == "s" else "{:.0f} MB"
    return fmt.format(statistics.median(values)), fmt.format(max(values))


def _cases(columns: Sequence[CaseColumn]) -> str:
    head = (
        "<tr><th>case</th><th>passed</th><th>rate</th><th>known mistakes</th>"
        "<th>time, median</th><th>most</th><th>peak memory, median</th><th>most</th></tr>"
    )
    rows = []
    for col in columns:
        rate = col.passed / col.ran if col.ran else 0.0
        meter = f'<span class="rate"><span class="bar" style="width: {rate:.0%}"></span></span>'
        mistakes = "".join(
            f'<li><span class="mistake">{html_text(m)}</span>: <span class="count">{n}</span></li>'
            for m, n in col.mistakes
        )
        time_median, time_most = _figures(col.times, "s")
        mem_median, mem_most = _figures(col.peaks_mb, "MB")
        if col.peaks_mb and col.memory_mb:
            mem_most += f" ({max(col.peaks_mb) / col.memory_mb:.0%} of {col.memory_mb} MB)"
        rows.append(
            f'<tr class="case" data-case="{html_text(col.name)}"><td>{html_text(col.name)}</td>'
            f'<td class="n">{col.passed}/{col.ran}</td><td>{meter} {rate:.0%}</td>'
            f'<td><ul class="mistakes">{mistakes}</ul></td>'
            f'<td class="n">{time_median}</td><td class="n">{time_most}</td>'
            f'<td class="n">{mem_median}</td><td class="n">{mem_most}</td></tr>'
        )
    note = (
        '<p class="note">Known mistakes: the known-wrong solutions whose output a submission '
        "printed, by how many submissions; time and memory of the cases a report shows "
        "(a hidden case's are not).</p>"
    )
    return f'<table class="cases">{head}{"".join(rows)}</table>{note}'


def _submissions(
    shown: Sequence[tuple[Entry, str]], links: Mapping[str, str], *, anonymize: bool
) -> str:
    head = "<tr><th>submission</th><th>result</th><th>report</th></tr>"
    rows = []
    for entry, name in shown:
        f = entry.feedback
        # a problem's text may quote the submission's path: anonymised, only its kind
        if f is None:
            result = "not gradable" if anonymize else f"not gradable: {entry.problem}"
        elif entry.score is None:
            result = "not graded: a grader error" if anonymize else entry.problem
        else:
            result = f"{f.passed}/{f.total} passed, {score_words(f, points=False)}"
        href = links.get(entry.submission)
        report = f'<a href="{html_text(href)}">report</a>' if href else ""
        rows.append(
            f'<tr class="submission"><td class="name">{html_text(name)}</td>'
            f"<td>{html_text(result)}</td><td>{report}</td></tr>"
        )
    return f'<table class="submissions">{head}{"".join(rows)}</table>'
