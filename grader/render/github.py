"""``--format github``: workflow-command annotations, and a Markdown job summary.

Student text can only appear inside an annotation's escaped message (``%``, CR and LF encoded as
GitHub's toolkit does), so it can never start a line, and so never a workflow command of its own.
The summary is Markdown for ``$GITHUB_STEP_SUMMARY``: HTML and table syntax in it are escaped.
"""

from __future__ import annotations

from ..judging.records import Feedback
from .escape import markdown_text, safe, safe_lines
from .score import score_words
from .text import fuzz_details, fuzz_title

MAX_ANNOTATIONS = 10  # GitHub shows at most 10 error annotations per step


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(feedback: Feedback) -> str:
    lines = []
    failed = [c for c in feedback.cases if not c.passed]
    for outcome in failed[:MAX_ANNOTATIONS]:
        title = f"{feedback.exercise}: {outcome.title} ({outcome.verdict.value})"
        message = outcome.message
        if outcome.diagnosis is not None:
            message += f"\nmistake: {outcome.diagnosis.message}"
        if outcome.hint:  # beside a named mistake too: the hint may be what names the bug
            message += f"\nhint: {outcome.hint}"
        # file= makes GitHub show the annotation on the submission (a path from the workspace)
        # controls, bidi and zero-width characters shown escaped first (safe), as everywhere
        file, shown = escape_property(safe(feedback.submission)), escape_property(safe(title))
        lines.append(f"::error file={file},title={shown}::{escape_data(safe_lines(message))}")
    fuzz = feedback.fuzz
    if fuzz is not None and fuzz.finding is not None:  # after the cases' (it ran after them)
        found = fuzz.finding
        title = f"{feedback.exercise}: {fuzz_title(fuzz)} ({found.verdict.value})"
        message = f"input {fuzz.tried} disagrees with the reference\n{fuzz_details(fuzz)}"
        file, shown = escape_property(safe(feedback.submission)), escape_property(safe(title))
        lines.append(f"::error file={file},title={shown}::{escape_data(safe_lines(message))}")
    if len(failed) > MAX_ANNOTATIONS:
        more = len(failed) - MAX_ANNOTATIONS
        cases = "case is" if more == 1 else "cases are"
        lines.append(f"{more} more failing {cases} in the job summary")
    f = feedback
    lines.append(f"{f.exercise}: {f.passed}/{f.total} cases passed, {score_words(f, points=False)}")
    return "\n".join(lines) + "\n"


_cell = markdown_text


def render_github_summary(feedback: Feedback) -> str:
    rows = [
        f"### {_cell(feedback.exercise)}: {feedback.passed}/{feedback.total} cases passed, "
        f"{score_words(feedback, points=False)}",
        "",
        "| | case | verdict | time | points | problem |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for c in feedback.cases:
        mark = "✅" if c.passed else "❌"
        problem = "" if c.passed else c.message
        rows.append(
            f"| {mark} | {_cell(c.title)} | {c.verdict.value} | {c.time_text} | "
            f"{c.points:g}/{c.max_points:g} | {_cell(problem)} |"
        )
    return "\n".join(rows) + "\n\n"
