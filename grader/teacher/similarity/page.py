"""A similarity report as one self-contained HTML page (``grade similar --html``): no script and
no network (its Content-Security-Policy allows inline styles only), so it opens the same from a
CI artifact; every name and line of a student's is text, never markup."""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence

from ...render.escape import safe, shorten
from ...render.html import NO_SCRIPT_NO_NETWORK
from .report import NOTICE, Pair, Region, SimilarityReport

# Of one side of a pair, the matched lines and CONTEXT lines around each, SHOWN_LINES at most
# (the first lines where nothing matched): a pasted-in megabyte, or one superset of the whole
# class in every pair, made pages of 35 MB and more when each side was shown whole
SHOWN_LINES = 400
CONTEXT = 3
PAGE_MOST = 16_000_000  # characters of pair views in one page: what a browser still opens
LINE_WIDTH = 200
_REGION_COLOURS = 6

_CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 90em; color: #222;
  padding: 0 1em; }
h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin-top: 1.6em; }
.notice { border-left: 4px solid #b3741e; background: #fdf6ec; padding: .6em 1em; }
table { border-collapse: collapse; } td, th { padding: .15em .7em; text-align: left; }
th { color: #666; font-weight: normal; } td.n { text-align: right; font-variant: tabular-nums; }
.bar { background: #6a8fc7; height: .8em; display: inline-block; }
details { border: 1px solid #ddd; border-radius: 6px; margin: .5em 0; padding: .3em .8em; }
summary { cursor: pointer; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; }
.side h3 { font-size: 1em; margin: .4em 0; word-break: break-all; }
.code { font: 12px/1.4 ui-monospace, monospace; white-space: pre-wrap; word-break: break-all; }
.code div { padding-left: 4em; text-indent: -4em; }
.no { color: #999; user-select: none; display: inline-block; width: 4em; text-indent: 0; }
.r0 { background: #f8d7a8; } .r1 { background: #c8f0cf; } .r2 { background: #cfe0fa; }
.r3 { background: #f2cdf0; } .r4 { background: #f8f3a8; } .r5 { background: #d7d2f8; }
.note { color: #777; }
"""


def _e(text: str) -> str:
    """Student text as HTML text: controls escaped visibly first (``safe``), then markup."""
    return html.escape(safe(text), quote=True)


def render_page(report: SimilarityReport) -> str:
    sources = dict(report.sources)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{NO_SCRIPT_NO_NETWORK}">',
        f"<title>Similarity: {_e(report.exercise)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>Similarity of the submissions of {_e(report.exercise)}</h1>",
        f'<p class="notice">{_e(NOTICE)}</p>',
        _summary(report),
        _histogram(report),
        _clusters(report),
        _pairs_table(report.pairs, "pair", "Pairs from the threshold, by token score"),
        *_within(_pair_view(n, p, sources, "pair") for n, p in enumerate(report.pairs, start=1)),
    ]
    if report.gradebook_used:
        parts.append(
            _pairs_table(
                report.evidence_pairs,
                "evidence",
                "Pairs by the gradebook's evidence (shared rare failures and mistakes)",
            )
        )
        parts.extend(
            _within(
                _pair_view(n, p, sources, "evidence")
                for n, p in enumerate(report.evidence_pairs, start=1)
            )
        )
    parts.append(_not_compared(report))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _within(views: Iterable[str], most: int = PAGE_MOST) -> list[str]:
    """The pair views that fit in ``most`` characters, then a line for the rest: every pair is
    in the JSON, and a browser must still open the page."""
    kept: list[str] = []
    size = 0
    for view in views:
        if size + len(view) > most:
            kept.append(
                '<p class="note">The matched lines of the pairs below this one are left '
                "out: the page is at its size limit. The JSON report has every pair.</p>"
            )
            break
        kept.append(view)
        size += len(view)
    return kept


def _summary(report: SimilarityReport) -> str:
    o, ignored = report.options, report.ignored
    compared = sum(c.problem is None for c in report.submissions)
    return (
        f"<p>{compared} submissions compared ({report.compared_pairs} pairs); "
        f"{len(report.pairs)} {'pair scores' if len(report.pairs) == 1 else 'pairs score'} "
        f"{o.threshold:.2f} or more. "
        f"Left out as no one's own: {ignored.reference} fingerprints of the reference, "
        f"{ignored.starter} of the starter code, {ignored.common} that more than "
        f"{o.max_share:.0%} of the class has. A score is the share of the smaller "
        f"submission's fingerprints that the other has too (k = {o.k} tokens, "
        f"window {o.window}).</p>"
    )


def _histogram(report: SimilarityReport) -> str:
    counts = report.histogram.counts
    width = report.histogram.width
    most = math.log1p(max(counts, default=0)) or 1.0
    rows = []
    for i, count in enumerate(counts):
        size = 100 * math.log1p(count) / most  # log: the bulk near 0 must not hide the tail
        rows.append(
            f"<tr><td>{i * width:.2f} to {(i + 1) * width:.2f}</td><td class=n>{count}</td>"
            f'<td style="width:30em"><span class="bar" style="width:{size:.1f}%"></span></td></tr>'
        )
    return (
        "<h2>Every pair's score</h2><p class=note>How many pairs scored in each bin (bars on a "
        "log scale): the pairs to look at are the tail, apart from the bulk.</p>"
        f"<table><tr><th>score</th><th>pairs</th><th></th></tr>{''.join(rows)}</table>"
    )


def _clusters(report: SimilarityReport) -> str:
    if not report.clusters:
        return "<h2>Clusters</h2><p class=note>No group of more than two.</p>"
    items = "".join(
        f"<li>{', '.join(_e(name) for name in group)}</li>" for group in report.clusters
    )
    return (
        "<h2>Clusters</h2><p class=note>Groups of more than two linked by pairs from the "
        f"threshold on.</p><ul>{items}</ul>"
    )


def _pairs_table(pairs: Sequence[Pair], anchor: str, title: str) -> str:
    if not pairs:
        return f"<h2>{_e(title)}</h2><p class=note>None.</p>"
    rows = "".join(
        f'<tr><td class=n><a href="#{anchor}-{n}">{n}</a></td><td>{_e(p.a)}</td>'
        f"<td>{_e(p.b)}{' (earlier class)' if p.archived else ''}</td>"
        f"<td class=n>{p.score:.3f}</td><td class=n>{p.a_share:.2f}</td>"
        f"<td class=n>{p.b_share:.2f}</td><td class=n>{_bits(p)}</td></tr>"
        for n, p in enumerate(pairs, start=1)
    )
    return (
        f"<h2>{_e(title)}</h2><table><tr><th>#</th><th>a</th><th>b</th><th>score</th>"
        "<th>of a</th><th>of b</th><th>evidence (bits)</th></tr>"
        f"{rows}</table>"
    )


def _bits(p: Pair) -> str:
    return "-" if p.evidence is None else f"{p.evidence.bits:.1f}"


def _pair_view(n: int, pair: Pair, sources: dict[str, tuple[str, ...]], anchor: str) -> str:
    a_marks = _marks(pair.regions, first=True)
    b_marks = _marks(pair.regions, first=False)
    evidence = ""
    if pair.evidence is not None and pair.evidence.shared:
        items = "".join(
            f"<li>{_e(s.what)}: {s.holders} of the class, {s.bits:.1f} bits</li>"
            for s in pair.evidence.shared
        )
        evidence = f"<p>The gradebook: they share</p><ul>{items}</ul>"
    return (
        f'<details id="{anchor}-{n}"><summary>{n}. {_e(pair.a)} and {_e(pair.b)}: '
        f"{pair.score:.3f}, {len(pair.regions)} matched regions</summary>{evidence}"
        '<div class="sides">'
        f"{_side(pair.a, sources.get(pair.a, ()), a_marks)}"
        f"{_side(pair.b, sources.get(pair.b, ()), b_marks)}</div></details>"
    )


def _marks(regions: Sequence[Region], *, first: bool) -> dict[int, int]:
    """Each matched line's region (the first that covers it): the same colour on both sides."""
    marks: dict[int, int] = {}
    for index, r in enumerate(regions):
        low, high = (r.a_first, r.a_last) if first else (r.b_first, r.b_last)
        for line in range(low, high + 1):
            marks.setdefault(line, index % _REGION_COLOURS)
    return marks


def shown_lines(count: int, matched: Iterable[int]) -> list[int]:
    """The line numbers (1-based) of a side that the page shows: each matched line with
    ``CONTEXT`` lines around it, ``SHOWN_LINES`` at most; the first ones if none matched."""
    near = {
        no
        for line in matched
        for no in range(line - CONTEXT, line + CONTEXT + 1)
        if 1 <= no <= count
    }
    return sorted(near)[:SHOWN_LINES] if near else list(range(1, min(count, 40) + 1))


def _side(name: str, lines: Sequence[str], marks: dict[int, int]) -> str:
    shown = []
    last = 0
    for no in shown_lines(len(lines), marks):
        if no > last + 1:
            shown.append(f'<div class="note">… {_lines(no - last - 1)}</div>')
        region = marks.get(no)
        matched = f' class="r{region}" data-matched' if region is not None else ""
        text = _e(shorten(lines[no - 1], LINE_WIDTH)) or " "
        shown.append(f'<div{matched}><span class="no">{no}</span>{text}</div>')
        last = no
    if len(lines) > last:
        shown.append(f'<div class="note">… {_lines(len(lines) - last)} more</div>')
    return f'<div class="side"><h3>{_e(name)}</h3><div class="code">{"".join(shown)}</div></div>'


def _lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n:,} lines"


def _not_compared(report: SimilarityReport) -> str:
    rows = [
        f"<li>{_e(c.name)}: {_e(c.problem or c.partial or '')}"
        f"{'' if c.problem else ' (compared up to there)'}</li>"
        for c in report.submissions
        if c.problem is not None or c.partial is not None
    ]
    if not rows:
        return ""
    return f"<h2>Not compared, or only in part</h2><ul>{''.join(rows)}</ul>"
