"""Comparing a submission's output with the expected output.

A comparator is any callable ``(expected, got) -> Comparison``; ``COMPARATORS`` maps the names a
spec may use (``compare: {method: ..., options: {...}}``) to factories that check their options and
build one. The built-ins are registered through the same table as any other would be.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Protocol


class Mismatch(StrEnum):
    TOKEN = "token"
    MISSING_TOKEN = "missing_token"
    EXTRA_TOKEN = "extra_token"
    MISSING_LINE = "missing_line"
    EXTRA_LINE = "extra_line"
    LINE = "line"  # whole-line comparators do not look at tokens


@dataclass(frozen=True)
class Comparison:
    """The verdict of one comparison and, when it failed, where the output first differs."""

    ok: bool
    kind: Mismatch | None = None
    line: int | None = None  # 1-based
    token: int | None = None  # 1-based
    expected: str | None = None  # the expected token (or line)
    got: str | None = None
    expected_line: str | None = None
    got_line: str | None = None
    note: str = ""

    @property
    def message(self) -> str:
        if self.ok:
            return "output matches"
        at = f"line {self.line}" + (f", token {self.token}" if self.token else "")
        text = {
            Mismatch.TOKEN: f"{at}: expected {self.expected!r}, got {self.got!r}",
            Mismatch.LINE: f"{at}: expected {self.expected!r}, got {self.got!r}",
            Mismatch.MISSING_TOKEN: f"{at}: missing token, expected {self.expected!r}",
            Mismatch.EXTRA_TOKEN: f"{at}: extra token {self.got!r}",
            Mismatch.MISSING_LINE: f"{at}: missing line, expected {self.expected!r}",
            Mismatch.EXTRA_LINE: f"{at}: extra line {self.got!r}",
        }[self.kind or Mismatch.LINE]
        return f"{text} ({self.note})" if self.note else text


class Comparator(Protocol):
    def __call__(self, expected: str, got: str) -> Comparison: ...


ComparatorFactory = Callable[[Mapping[str, Any]], Comparator]


def normalise(text: str) -> list[str]:
    """Lines with CRLF folded to LF, trailing whitespace dropped, trailing blank lines dropped."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _line_level(expected: list[str], got: list[str]) -> Comparison | None:
    """The missing/extra line verdict once the common prefix of lines has matched."""
    if len(got) < len(expected):
        n = len(got) + 1
        note = "the output was empty" if not got else ""
        exp = expected[n - 1]
        return Comparison(False, Mismatch.MISSING_LINE, n, None, exp, None, exp, None, note)
    if len(got) > len(expected):
        n = len(expected) + 1
        return Comparison(False, Mismatch.EXTRA_LINE, n, None, None, got[n - 1], None, got[n - 1])
    return None


_DECIMAL = re.compile(r"[+-]?\d+\.(\d+)")


@dataclass(frozen=True)
class TokenComparator:
    """Whitespace-separated tokens; decimals match within ``tolerance_ulps`` of the last place.

    A decimal (digits, a point, digits) must be printed with exactly as many decimals as the
    expected one: ``0.06300`` may pass for ``0.06299``, ``0.0630`` never does. Everything else,
    integers included, must match exactly.
    """

    tolerance_ulps: int = 1

    def __call__(self, expected: str, got: str) -> Comparison:
        want, have = normalise(expected), normalise(got)
        for n, (exp_line, got_line) in enumerate(zip(want, have, strict=False), start=1):
            found = self._line(n, exp_line, got_line)
            if found is not None:
                return found
        return _line_level(want, have) or Comparison(True)

    def _line(self, n: int, exp_line: str, got_line: str) -> Comparison | None:
        exp_tokens, got_tokens = exp_line.split(), got_line.split()
        for t, (exp, have) in enumerate(zip(exp_tokens, got_tokens, strict=False), start=1):
            if exp == have:
                continue
            ok, note = self._token(exp, have)
            if not ok:
                return Comparison(False, Mismatch.TOKEN, n, t, exp, have, exp_line, got_line, note)
        if len(got_tokens) < len(exp_tokens):
            t = len(got_tokens) + 1
            exp = exp_tokens[t - 1]
            return Comparison(False, Mismatch.MISSING_TOKEN, n, t, exp, None, exp_line, got_line)
        if len(got_tokens) > len(exp_tokens):
            t = len(exp_tokens) + 1
            have = got_tokens[t - 1]
            return Comparison(False, Mismatch.EXTRA_TOKEN, n, t, None, have, exp_line, got_line)
        return None

    def _token(self, exp: str, have: str) -> tuple[bool, str]:
        exp_match = _DECIMAL.fullmatch(exp)
        if exp_match is None:
            return False, ""
        places = len(exp_match.group(1))
        have_match = _DECIMAL.fullmatch(have)
        if have_match is None:
            return False, f"expected a number with {places} decimals"
        if len(have_match.group(1)) != places:
            return False, f"expected {places} decimals, got {len(have_match.group(1))}"
        allowed = Decimal(self.tolerance_ulps).scaleb(-places)
        return abs(Decimal(exp) - Decimal(have)) <= allowed, ""


@dataclass(frozen=True)
class ExactComparator:
    """Whole lines after normalisation, character for character."""

    def __call__(self, expected: str, got: str) -> Comparison:
        want, have = normalise(expected), normalise(got)
        for n, (exp, line) in enumerate(zip(want, have, strict=False), start=1):
            if exp != line:
                return Comparison(False, Mismatch.LINE, n, None, exp, line, exp, line)
        return _line_level(want, have) or Comparison(True)


def _tokens(options: Mapping[str, Any]) -> Comparator:
    _only(options, ("tolerance_ulps",))
    ulps = options.get("tolerance_ulps", 1)
    if isinstance(ulps, bool) or not isinstance(ulps, int) or ulps < 0:
        raise ValueError(f"tolerance_ulps: must be a whole number >= 0, got {ulps!r}")
    return TokenComparator(tolerance_ulps=ulps)


def _exact(options: Mapping[str, Any]) -> Comparator:
    _only(options, ())
    return ExactComparator()


def _only(options: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    for key in options:
        if key not in allowed:
            known = ", ".join(allowed) or "none"
            raise ValueError(f"{key}: unknown option (allowed: {known})")


COMPARATORS: Mapping[str, ComparatorFactory] = MappingProxyType(
    {"tokens": _tokens, "exact": _exact}
)


def build(method: str, options: Mapping[str, Any]) -> Comparator:
    """Raises ``ValueError`` with a message fit to follow ``compare.``."""
    factory = COMPARATORS.get(method)
    if factory is None:
        raise ValueError(f"method: unknown comparator {method!r} (known: {', '.join(COMPARATORS)})")
    return factory(options)
