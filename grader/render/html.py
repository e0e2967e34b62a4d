"""A self-contained HTML page of the report, for students who would rather look than read a
terminal: no script, no network (a Content-Security-Policy forbids both), every piece of
student text escaped, and the same facts as the text report."""

from __future__ import annotations

import html

from ..judging.compare import TOKEN
from ..judging.grouping import Grouping, same_mistake
from ..judging.printed import INPUT_LINES, line_count, lines_kept
from ..judging.records import (
    CaseFeedback,
    Comparison,
    Feedback,
    FuzzFeedback,
    Mismatch,
    Verdict,
)
from .escape import safe
from .score import score_words
from .text import STDERR_LINES, fuzz_details, fuzz_title

_CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { font-size: 1.3em; } .sub { color: #666; font-weight: normal; }
.summary { font-size: 1.15em; margin: 1em 0; } .ok { color: #17772b; } .bad { color: #b3261e; }
details { border: 1px solid #ddd; border-radius: 6px; margin: .4em 0; padding: .3em .8em; }
summary { cursor: pointer; display: flex; gap: 1em; }
summary .title { flex: 1; } .verdict { font-family: monospace; } .time, .memory { color: #777; }
.passed .verdict { color: #17772b; } .failed .verdict { color: #b3261e; }
.skipped .verdict, .note { color: #777; }
table { border-collapse: collapse; margin: .5em 0; } th { text-align: left; color: #666;
  font-weight: normal; padding-right: 1em; vertical-align: top; }
pre { margin: 0; font: 13px/1.4 ui-monospace, monospace; white-space: pre-wrap; }
mark.exp { background: #c8f0cf; } mark.got { background: #f8cdc9; }
.advice { color: #0b5cad; font-weight: bold; } .hint { color: #0b5cad; }
"""


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def html_text(text: str) -> str:
    """Student-controlled text (one line) as a page shows it: controls and bidi escaped
    (``safe``), then HTML-escaped, quotes included (so an attribute value too)."""
    return _e(safe(text))


def _lines(text: str, limit: int, *, tail: bool = False) -> str:
    lines = text.splitlines() or [""]
    kept = lines_kept(len(lines), limit)
    more = len(lines) - kept
    shown = lines[-kept:] if tail else lines[:kept]
    body = "\n".join(_e(safe(line)) for line in shown)
    if more > 0:
        note = f'<span class="note">… ({line_count(more)} {"earlier" if tail else "more"})</span>'
        body = f"{note}\n{body}" if tail else f"{body}\n{note}"
    return f"<pre>{body}</pre>"


def _marked(line: str, token: int | None, kind: str) -> str:
    """The line with its ``token``-th token marked."""
    if token:
        for n, match in enumerate(TOKEN.finditer(line), start=1):
            if n == token:
                before, word, after = (
                    line[: match.start()],
                    match.group(),
                    line[match.end() :],
                )
                return (
                    f"<pre>{_e(safe(before))}<mark class={kind}>{_e(safe(word))}</mark>"
                    f"{_e(safe(after))}</pre>"
                )
    return f"<pre>{_e(safe(line))}</pre>"


def _rows(c: CaseFeedback) -> list[tuple[str, str]]:
    if not c.details_shown:
        return [("", '<span class="note">hidden case: no input or output is shown</span>')]
    rows = [("problem", _e(safe(c.message)))]
    if c.verdict not in (Verdict.GRADER_ERROR, Verdict.SKIPPED):
        rows.append(("input", _lines(c.input, INPUT_LINES)))
    m: Comparison | None = c.comparison
    if m is not None and not m.ok:
        if m.kind is Mismatch.CHECKER:
            rows.append(("got", _lines(c.stdout, INPUT_LINES)))
        elif m.kind is Mismatch.MISSING_LINE:
            rows.append(("expected", _marked(m.expected_line or "", None, "exp")))
        elif m.kind is Mismatch.EXTRA_LINE:
            rows.append(("got", _marked(m.got_line or "", None, "got")))
        else:
            rows.append(("expected", _marked(m.expected_line or "", m.token, "exp")))
            rows.append(("got", _marked(m.got_line or "", m.token, "got")))
    if c.verdict is Verdict.RUNTIME_ERROR and c.stderr.strip():
        rows.append(("stderr", _lines(c.stderr, STDERR_LINES, tail=True)))
    if c.verdict is Verdict.TIMEOUT and c.stdout.strip():
        rows.append(("printed", _lines(c.stdout, INPUT_LINES, tail=True)))
    if c.advice:
        rows.append(("advice", f'<span class="advice">{_e(safe(c.advice))}</span>'))
    if c.hint:
        rows.append(("hint", f'<span class="hint">this case checks: {_e(c.hint)}</span>'))
    return rows


def _memory(c: CaseFeedback) -> str:
    """The run's peak memory and its share of the limit, where it was measured and is shown."""
    if c.peak_bytes is None:
        return ""
    return f'<span class="memory" title="peak memory">{_e(c.memory_text)}</span>'


def _case(
    c: CaseFeedback, group: list[str] | None, compile_error: bool, hint_said: bool = False
) -> str:
    state = "passed" if c.passed else "skipped" if c.verdict is Verdict.SKIPPED else "failed"
    opened = "" if c.passed or compile_error else " open"
    head = (
        f'<summary><span class="title">{_e(safe(c.title))}</span>'
        f'<span class="verdict">{_e(c.verdict.value)}</span>'
        f'<span class="time">{c.time_text}</span>{_memory(c)}</summary>'
    )
    if c.passed or compile_error:
        body = ""
    elif group is not None and group[0] != c.name:
        body = f'<p class="note">the same mistake as {_e(safe(group[0]))}, above</p>'
        if c.hint and not hint_said:  # a hint no case above said: it may name the bug
            body += f'<p class="hint">this case checks: {_e(safe(c.hint))}</p>'
    else:
        rows = _rows(c)
        if c.title != c.name:
            rows.insert(0, ("case", _e(safe(c.name))))
        if group is not None:
            rows.append(("also in", _e(", ".join(safe(n) for n in group[1:]))))
        body = "<table>" + "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
        body += "</table>"
    return f'<details class="{state}"{opened}>{head}{body}</details>'


def _fuzz(fuzz: FuzzFeedback | None) -> str:
    """After the cases (it ran after them): that no input disagreed, or the shrunk one, as the
    text report shows it (the input exactly: each newline marked), escaped for the page."""
    if fuzz is None:
        return ""
    found = fuzz.finding
    if found is None:
        return f'\n<p class="ok">{_e(fuzz_title(fuzz))}: no disagreement with the reference</p>'
    head = (
        f'<summary><span class="title">{_e(fuzz_title(fuzz))}: input {fuzz.tried} disagrees'
        f" with the reference, shrunk in {fuzz.shrink_runs} runs</span>"
        f'<span class="verdict">{_e(found.verdict.value)}</span></summary>'
    )
    return f'\n<details class="failed" open>{head}<pre>{_e(fuzz_details(fuzz))}</pre></details>'


def render_html(feedback: Feedback) -> str:
    groups = {} if feedback.compile_error else same_mistake(feedback.cases)
    # a fuzz finding fails the report (exit 1) though every case passed: not shown in green
    ok = feedback.passed == feedback.total and (feedback.fuzz is None or feedback.fuzz.passed)
    compile_error = ""
    if feedback.compile_error:
        compile_error = (
            f'<p class="bad">{_e(safe(feedback.submission))} does not compile:</p>'
            f"{_lines(feedback.compile_error, 40)}"
        )
    shown: list[str] = []
    grouping = Grouping()  # which hints a repeat still says, as the text report has it
    for c in feedback.cases:
        placed, grouping = grouping.place_case(c)
        shown.append(_case(c, groups.get(c.name), bool(feedback.compile_error), placed.hint_said))
    cases = "\n".join(shown)
    mistake = ""
    if feedback.diagnosis is not None:  # said once, as every format says it
        said = _e(safe(feedback.diagnosis.summary))
        mistake = f'<p class="mistake">mistake: <span class="advice">{said}</span></p>\n'
    title = f"{feedback.exercise}: {feedback.passed}/{feedback.total} cases passed"
    return f"""{page_head(title, _CSS)}
</head>
<body>
<h1>{_e(feedback.exercise)} <span class="sub">· {_e(safe(feedback.submission))}</span></h1>
<p class="summary {"ok" if ok else "bad"}">{feedback.passed}/{feedback.total} cases passed,
{score_words(feedback)}</p>
{mistake}{compile_error}
{cases}{_fuzz(feedback.fuzz)}
</body>
</html>
"""


# What every page grade writes may load and run: its own inline styles, nothing else (no
# script, no network), so that it opens the same from a CI artifact, a mail or a shared folder.
NO_SCRIPT_NO_NETWORK = "default-src 'none'; style-src 'unsafe-inline'"


def page_head(title: str, css: str) -> str:
    """A page's start, to its styles: the policy above, ``title`` as text (``html_text``)."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{NO_SCRIPT_NO_NETWORK}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html_text(title)}</title>
<style>{css}</style>"""
