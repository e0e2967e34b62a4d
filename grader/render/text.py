"""The human report: one line per case, details under each failure, a summary line.

``render_text`` builds a styled ``rich.text.Text``; the rich format is it with ANSI colours, and the
plain format is the same text without styles, so a log shows exactly what a terminal shows.
Student-controlled text goes through ``safe`` and into ``Text`` objects, never into markup.
"""

from __future__ import annotations

import difflib
import io
import textwrap

from rich.console import Console
from rich.text import Text

from ..judging.compare import TOKEN, normalise, tokens
from ..judging.grouping import Grouping, same_mistake
from ..judging.printed import INPUT_LINES, line_count, lines_kept
from ..judging.records import CaseFeedback, Comparison, Feedback, FuzzFeedback, Mismatch, Verdict
from .escape import log_safe, safe, shorten
from .score import score_words

LINE_WIDTH = 100
STDERR_LINES = 12
_LABEL = 10  # width of the detail labels ("expected", "got", ...)

_STYLE = {
    Verdict.PASSED: "green",
    Verdict.WRONG_ANSWER: "red",
    Verdict.RUNTIME_ERROR: "red",
    Verdict.TIMEOUT: "yellow",
    Verdict.MEMORY_LIMIT: "yellow",
    Verdict.OUTPUT_LIMIT: "yellow",
    Verdict.GRADER_ERROR: "magenta",
    Verdict.SKIPPED: "dim",
}


def _mark(outcome: CaseFeedback) -> str:
    if outcome.passed:
        return "✓"
    return {Verdict.GRADER_ERROR: "!", Verdict.SKIPPED: "-"}.get(outcome.verdict, "✗")


QUIET, NORMAL, VERBOSE = -1, 0, 1


class TextReport:
    """The human report, built case by case, so that a terminal can show each case as soon as
    it is known (``grade check`` prints as it goes) and a file gets the same text at the end.

    A failure that repeats an earlier one (same first mismatch, same crash) refers to it
    instead of repeating it; ``-q`` shows one line per case and the first failure in full,
    ``-v`` every detail of every case, passes included.
    """

    def __init__(self, titles: list[str], verbosity: int = NORMAL, *, diff: bool = False) -> None:
        self.width = min(48, max((len(safe(t)) for t in titles), default=10))
        self.verbosity = verbosity
        self.diff = diff  # the whole expected and actual output, under each shown failure
        self._grouping = Grouping()  # what the failures shown so far said (grouping.py)
        self._skipped = False  # why cases were not run is said once
        self._shown_failure = False

    def header(self, exercise: str, submission: str, compile_error: str) -> Text:
        out = Text()
        out.append(exercise, style="bold")
        out.append(f" · {safe(submission)}\n\n")
        if compile_error:  # said once, above the cases, none of which ran
            out.append(f" ✗ {safe(submission)} does not compile:\n", style="bold red")
            for line in compile_error.rstrip("\n").split("\n"):
                out.append(f"     {safe(line)}\n")
            out.append("\n")
        return out

    def case(self, outcome: CaseFeedback, *, compile_error: bool = False) -> Text:
        out = Text()
        style = _STYLE[outcome.verdict]
        out.append(f" {_mark(outcome)} ", style=style)
        out.append(shorten(safe(outcome.title), self.width).ljust(self.width))
        out.append(f"  {outcome.verdict.value:<13}", style=style)
        hidden = not outcome.details_shown and not outcome.passed
        # a hidden case shows nothing more: say so on its own line, not in a block under it
        out.append(
            f" {outcome.time_text:>8}" + ("  (hidden case)" if hidden else "") + "\n", style="dim"
        )
        if compile_error or hidden:
            return out
        if outcome.verdict is Verdict.SKIPPED:
            if not self._skipped:
                self._skipped = True
                _row(out, "", safe(outcome.message), "dim")
            return out
        if outcome.passed:
            if self.verbosity >= VERBOSE:
                _details(out, outcome)
            return out
        if self.verbosity <= QUIET and self._shown_failure:
            return out
        placed, self._grouping = self._grouping.place_case(
            outcome, grouped=self.verbosity < VERBOSE
        )
        if placed.same_as is not None:
            _row(out, "", f"the same mistake as {safe(placed.same_as)}, above", "dim")
            if outcome.hint and not placed.hint_said:  # what the first did not say
                _prose(out, "hint", f"this case checks: {safe(outcome.hint)}", "cyan")
            return out
        self._shown_failure = True
        _details(out, outcome)
        if self.diff and outcome.details_shown and outcome.comparison is not None:
            full_diff(out, outcome.expected, outcome.stdout)
        return out

    def footer(self, feedback: Feedback, *, selected: str = "") -> Text:
        out = Text("\n")
        summary_style = "bold green" if feedback.passed == feedback.total else "bold red"
        out.append(f"{feedback.passed}/{feedback.total} cases passed", style=summary_style)
        out.append(f", {score_words(feedback)}{selected}\n")
        if feedback.diagnosis is not None:  # known once every case is: said once, here
            _prose(out, "mistake", safe(feedback.diagnosis.summary), "bold magenta")
        if self.verbosity > QUIET:
            out.append(slowest_line(feedback.cases), style="dim")
        return out


_CLEARLY_MORE = 1.1


def slowest_line(cases: tuple[CaseFeedback, ...]) -> str:
    """The slowest shown case with its peak memory as a share of the limit, and the case that
    held the most memory where another did; "" where no case's memory was measured (nor is
    shown: a hidden case's time and memory are not)."""
    measured = [c for c in cases if c.peak_bytes is not None]
    if not measured:
        return ""
    slowest = max(measured, key=lambda c: c.time_s)
    line = f"slowest: {safe(slowest.name)} {slowest.time_text}, peak memory {slowest.memory_text}"
    most = max(measured, key=lambda c: c.peak_bytes or 0)
    # another case only where it held clearly more: runs of one script differ by a few MB
    if (most.peak_bytes or 0) > (slowest.peak_bytes or 0) * _CLEARLY_MORE:
        line += f"; most memory: {safe(most.name)} {most.memory_text}"
    return line + "\n"


def full_diff(out: Text, expected: str, got: str) -> None:
    """Expected and actual output in full, as a unified diff of their normalised lines, the
    differing tokens of a changed line marked."""
    want, have = normalise(expected), normalise(got)
    out.append("     ── expected (-) and your output (+), in full ──\n", style="dim")
    matcher = difflib.SequenceMatcher(a=want, b=have, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            for line in want[a0:a1]:
                out.append(f"       {shorten(safe(line), LINE_WIDTH)}\n", style="dim")
            continue
        old, new = want[a0:a1], have[b0:b1]
        paired = op == "replace"
        for i, line in enumerate(old):
            _diff_line(out, "-", line, new[i] if paired and i < len(new) else None, "green")
        for i, line in enumerate(new):
            _diff_line(out, "+", line, old[i] if paired and i < len(old) else None, "red")


def _diff_line(out: Text, sign: str, line: str, other: str | None, style: str) -> None:
    """One line of the diff; a changed line of the output gets carets under the tokens that
    differ from the expected line's (the colour alone would not survive a log)."""
    out.append(f"     {sign} ", style=style)
    theirs = tokens(other) if other is not None else None
    start, carets = 0, ""
    for n, match in enumerate(TOKEN.finditer(line)):
        gap, word = safe(line[start : match.start()]), safe(match.group())
        differs = theirs is None or n >= len(theirs) or theirs[n] != match.group()
        out.append(gap)
        out.append(word, style=f"bold {style}" if differs else "")
        carets += " " * len(gap) + ("^" if differs else " ") * len(word)
        start = match.end()
    out.append(safe(line[start:]) + "\n")
    if sign == "+" and theirs is not None and carets.strip():
        out.append(f"       {carets.rstrip()}\n", style=f"bold {style}")


def render_text(feedback: Feedback, verbosity: int = NORMAL, *, diff: bool = False) -> Text:
    report = TextReport([c.title for c in feedback.cases], verbosity, diff=diff)
    out = report.header(feedback.exercise, feedback.submission, feedback.compile_error)
    grouped = verbosity == NORMAL and not feedback.compile_error
    groups = same_mistake(feedback.cases) if grouped else {}
    for outcome in feedback.cases:
        out.append_text(report.case(outcome, compile_error=bool(feedback.compile_error)))
        group = groups.get(outcome.name)
        if group is not None and group[0] == outcome.name:  # written last: it waits for them
            _row(out, "also in", ", ".join(safe(n) for n in group[1:]), "dim")
    out.append_text(report.footer(feedback))
    if feedback.fuzz is not None:
        out.append_text(fuzz_section(feedback.fuzz))
    return out


def render_plain(feedback: Feedback, verbosity: int = NORMAL, *, diff: bool = False) -> str:
    return log_safe(render_text(feedback, verbosity, diff=diff).plain)


def ansi(text: Text) -> str:
    """``text`` with ANSI colours (8 standard ones: every terminal has them)."""
    buffer = io.StringIO()
    console = Console(
        file=buffer, force_terminal=True, color_system="standard", highlight=False, soft_wrap=True
    )
    console.print(text, end="")
    return buffer.getvalue()


def render_rich(feedback: Feedback, verbosity: int = NORMAL, *, diff: bool = False) -> str:
    return log_safe(ansi(render_text(feedback, verbosity, diff=diff)))


def case_details(outcome: CaseFeedback) -> str:
    """The plain-text feedback under one case (empty for a pass), for the other formats to embed.

    A hidden case's feedback holds no input or output to show.
    """
    if outcome.passed:
        return ""
    out = Text()
    if outcome.diagnosis is not None:  # the report's, on each case it explains: a CI line
        _prose(out, "mistake", safe(outcome.diagnosis.message))  # is one case's alone
    _details(out, outcome)
    return "\n".join(line[5:] for line in out.plain.splitlines()) + "\n"


def _num(value: float) -> str:
    return f"{value:g}"


def _prose(out: Text, label: str, value: str, style: str = "") -> None:
    """A sentence (a problem, advice, a hint) wrapped at ``LINE_WIDTH``, its later lines hung
    under its first: a terminal would wrap it at its edge, back to the first column."""
    width = LINE_WIDTH - 5 - _LABEL
    lines = textwrap.wrap(value, width, break_long_words=False, break_on_hyphens=False)
    for line in lines or [""]:
        _row(out, label, line, style)
        label = ""


def _visible_blank(line: str) -> str:
    """A line of spaces shown as such (␠, and ⇥ for a tab): else it looks like an empty one."""
    if line and not line.strip(" \t"):
        return line.replace(" ", "␠").replace("\t", "⇥")
    return line


def _row(out: Text, label: str, value: str | Text, style: str = "") -> None:
    out.append(f"     {label:<{_LABEL}}", style="dim")
    out.append(value if isinstance(value, Text) else Text(value, style=style))
    out.append("\n")


def _block(out: Text, label: str, text: str, max_lines: int, *, tail: bool = False) -> None:
    lines = text.splitlines() or [""]
    kept = lines_kept(len(lines), max_lines)
    more = len(lines) - kept
    shown = lines[-kept:] if tail else lines[:kept]
    if more > 0 and tail:
        _row(out, label, f"… ({line_count(more)} earlier)", "dim")
        label = ""
    for line in shown:
        _row(out, label, shorten(safe(_visible_blank(line)), LINE_WIDTH))
        label = ""
    if more > 0 and not tail:
        _row(out, "", f"… ({line_count(more)} more)", "dim")


def _details(out: Text, outcome: CaseFeedback) -> None:
    if outcome.title != outcome.name:
        _row(out, "case", outcome.name, "dim")
    if not outcome.details_shown:
        _row(out, "", "hidden case: no input or output is shown", "dim")
        return
    _prose(out, "problem", safe(outcome.message), _STYLE[outcome.verdict])
    if outcome.verdict not in (Verdict.GRADER_ERROR, Verdict.SKIPPED):  # nothing ran on it
        _block(out, "input", outcome.input, INPUT_LINES)
    if outcome.comparison is not None and not outcome.comparison.ok:
        _diff(out, outcome.comparison, outcome.stdout)
    if outcome.verdict is Verdict.RUNTIME_ERROR and outcome.stderr.strip():
        _block(out, "stderr", outcome.stderr, STDERR_LINES, tail=True)
    if outcome.verdict is Verdict.TIMEOUT and outcome.stdout.strip():
        _block(out, "printed", outcome.stdout, INPUT_LINES, tail=True)  # where it stopped
    if outcome.verdict is Verdict.OUTPUT_LIMIT:
        stream = outcome.stderr if " on stderr;" in outcome.message else outcome.stdout
        _block(out, "printed", stream, INPUT_LINES)  # how it began: usually a loop's output
    if outcome.advice:
        _prose(out, "advice", safe(outcome.advice), "bold cyan")
    if outcome.hint:  # beside a named mistake too: the hint may be what names the bug
        _prose(out, "hint", f"this case checks: {safe(outcome.hint)}", "cyan")


def _token_span(line: str, index: int) -> tuple[int, int] | None:
    """Start and end, in the escaped line, of the ``index``-th (1-based) token of ``line``."""
    for n, match in enumerate(TOKEN.finditer(line), start=1):
        if n == index:
            start = len(safe(line[: match.start()]))
            return start, start + len(safe(match.group()))
    return None


def _window(line: str, span: tuple[int, int] | None) -> tuple[str, tuple[int, int] | None]:
    """Cut a long escaped line to ``LINE_WIDTH`` around ``span``, shifting the span to match."""
    text = safe(line)
    if len(text) <= LINE_WIDTH:
        return text, span
    start = 0 if span is None else max(0, span[0] - LINE_WIDTH // 3)
    end = start + LINE_WIDTH - 2
    cut = ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")
    if span is None:
        return cut, None
    shift = start - (1 if start else 0)
    return cut, (span[0] - shift, min(span[1] - shift, len(cut)))


def _shown_line(line: str, token: int | None, style: str) -> tuple[Text, tuple[int, int] | None]:
    line = _visible_blank(line)
    span = _token_span(line, token) if token else None
    text, span = _window(line, span)
    shown = Text(text)
    if span is not None:
        shown.stylize(f"bold {style}", *span)
    return shown, span


def _diff(out: Text, c: Comparison, stdout: str) -> None:
    if c.kind is Mismatch.CHECKER:  # several answers are right: no one expected line to show
        _block(out, "got", stdout, INPUT_LINES)
        return
    if c.kind in (Mismatch.MISSING_LINE, Mismatch.EXTRA_LINE):
        label = "expected" if c.kind is Mismatch.MISSING_LINE else "got"
        line = c.expected_line if c.kind is Mismatch.MISSING_LINE else c.got_line
        _row(out, label, _shown_line(line or "", None, "green")[0])
        return
    exp, _ = _shown_line(c.expected_line or "", c.token, "green")
    got, span = _shown_line(c.got_line or "", c.token, "red")
    _row(out, "expected", exp)
    _row(out, "got", got)
    if c.kind is Mismatch.MISSING_TOKEN:
        span = (len(got.plain), len(got.plain) + 1)
    if span is not None:
        _row(out, "", " " * span[0] + "^" * max(1, span[1] - span[0]), "bold red")


# --fuzz: its section at the end of the report, and the same details for the other formats

FUZZ_LINES = 20  # of the shrunk input and of each output: a shrunk input is small


def fuzz_title(fuzz: FuzzFeedback) -> str:
    """What the fuzzing was, as a line and as a test's name in the other formats."""
    return f"fuzz: {fuzz.count} generated inputs (seed {fuzz.seed})"


def fuzz_section(fuzz: FuzzFeedback) -> Text:
    """After the summary line: that no input disagreed, or the shrunk one, what the reference
    and the submission print on it, and the command that adds it as a case."""
    out = Text("\n")
    found = fuzz.finding
    if found is None:
        out.append(f"{fuzz_title(fuzz)}: no disagreement with the reference\n", style="green")
        return out
    out.append(
        f"fuzz: input {fuzz.tried} of seed {fuzz.seed} disagrees with the reference; "
        f"shrunk in {fuzz.shrink_runs} runs to:\n",
        style="bold red",
    )
    _fuzz_details(out, fuzz, found)
    return out


def _fuzz_details(out: Text, fuzz: FuzzFeedback, found: CaseFeedback) -> None:
    _row(out, "problem", safe(found.message), _STYLE[found.verdict])
    _exact_block(out, "input", found.input, FUZZ_LINES)
    _block(out, "expected", found.expected, FUZZ_LINES)
    _block(out, "got", found.stdout, FUZZ_LINES)
    if found.verdict is Verdict.RUNTIME_ERROR and found.stderr.strip():
        _block(out, "stderr", found.stderr, STDERR_LINES, tail=True)
    if fuzz.saved:
        _row(out, "saved as", safe(f"{fuzz.saved}.in and .out"))
    else:
        _row(out, "add it", safe(fuzz.save_case), "cyan")


def _exact_block(out: Text, label: str, text: str, max_lines: int) -> None:
    """``text`` as it is, so that saving it reproduces what is shown: each newline written
    ``\\n`` at the end of its line (as ``safe`` writes a tab ``\\t``), so a blank line at the end
    shows, and a last line without one says so. Only ``\\n`` ends a line here: a carriage
    return or a form feed is an escape inside one."""
    lines = text.split("\n")
    ends_line = text.endswith("\n")
    if ends_line or not lines[-1]:
        lines.pop()
    kept = lines_kept(len(lines), max_lines)
    for n, line in enumerate(lines[:kept]):
        shown = Text(shorten(safe(line), LINE_WIDTH))
        if n < len(lines) - 1 or ends_line:
            shown.append("\\n", style="dim")
        _row(out, label, shown)
        label = ""
    if len(lines) > kept:
        _row(out, "", f"… ({line_count(len(lines) - kept)} more)", "dim")
    if not ends_line:
        _row(out, label, "(empty)" if not text else "(no newline at the end)", "dim")


def fuzz_details(fuzz: FuzzFeedback) -> str:
    """The plain text of ``fuzz_section``'s finding (empty for none), for other formats."""
    if fuzz.finding is None:
        return ""
    out = Text()
    _fuzz_details(out, fuzz, fuzz.finding)
    return "\n".join(line[5:] for line in out.plain.splitlines()) + "\n"
