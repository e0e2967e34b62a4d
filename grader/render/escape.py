"""Make student-controlled text safe to show: it is data, never markup or terminal control."""

from __future__ import annotations

# Bidirectional overrides can make shown text read differently from what was printed.
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F)}


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
    return "".join(ch if ch.isprintable() and ch not in _BIDI else _escape_char(ch) for ch in text)


def shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
