"""Make student-controlled text safe to show: it is data, never markup or terminal control."""

from __future__ import annotations

import re


def _escape_char(ch: str) -> str:
    if ch == "\t":
        return "\\t"
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe(text: str) -> str:
    """``text`` (one line) with every character Python does not call printable written as a
    visible escape: controls, bidi overrides, and the spaces that read as a space or as
    nothing (a no-break space, a zero-width one), which would hide where output differs."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape_char(ch) for ch in text)


# What CI runners read as commands in a job's log, wherever a report's line lands there:
# GitHub runs "::cmd::" after any leading whitespace and the legacy "##[cmd]" anywhere in a
# line; GitLab opens and closes collapsible sections with "section_start:" / "section_end:";
# Azure Pipelines reads "##vso[cmd]" anywhere in a line too.
_LINE_COMMANDS = ("::", "section_start:", "section_end:")
_ANYWHERE = ("##[", "##vso[")


def log_safe(text: str) -> str:
    """``text`` (lines already through ``safe``) as it may reach a CI log: a line that would
    start a runner's command, or hold GitHub's legacy one, gets its first character of the
    command written as an escape (``\\x3a:add-mask::``, ``#\\x23[error]``), as ``safe`` writes
    what it escapes. The grader's own lines never start so."""
    if ":" not in text and "#" not in text:
        return text
    lines = []
    for line in text.split("\n"):
        body = line.lstrip()
        lead = line[: len(line) - len(body)]
        if body.startswith(_LINE_COMMANDS):
            body = f"\\x{ord(body[0]):02x}{body[1:]}"
        for command in _ANYWHERE:
            body = body.replace(command, f"#\\x23{command[2:]}")
        lines.append(lead + body)
    return "\n".join(lines)


def safe_lines(text: str) -> str:
    """``safe`` for text of several lines: each line escaped, the line breaks kept."""
    return "\n".join(safe(line) for line in text.split("\n"))


_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation character


def markdown_text(text: str) -> str:
    """Text as Markdown (a CI job summary) shows it literally, on one line: controls and bidi
    escaped (``safe``), each ASCII punctuation character backslash-escaped, as CommonMark
    allows for all of them (no link, image, emphasis, HTML, entity or autolink is left, and a
    pipe cannot end a table's cell)."""
    return _PUNCTUATION.sub(r"\\\1", safe(" ".join(text.split())))


def shorten(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, its last one an ellipsis where it was cut."""
    if len(text) <= width:
        return text
    return text[: width - 1] + "…" if width > 0 else ""
