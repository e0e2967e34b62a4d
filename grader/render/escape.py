"""Make student-controlled text safe to show: it is data, never markup or terminal control."""

from __future__ import annotations

import unicodedata

# Bidirectional overrides can make shown text read differently from what was printed.
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F)}


def _escape_char(ch: str) -> str:
    if ch == "\t":
        return "\\t"
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe(text: str) -> str:
    """``text`` (one line) with control and bidi characters written as visible escapes."""
    if text.isprintable():
        return text
    return "".join(
        _escape_char(ch) if ch in _BIDI or unicodedata.category(ch) == "Cc" else ch for ch in text
    )


def shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
