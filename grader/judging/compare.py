"""Comparing a submission's output with the expected output.

A comparator is any callable ``(expected, got) -> Comparison``; ``COMPARATORS`` maps the names a
spec may use (``compare: {method: ..., options: {...}}``) to factories that check their options and
build the exercise's ``Compare``: one comparator for every case, or a checker program, which
the grading binds to each case (it is given the case's input). The built-ins are registered
through the same table as any other would be.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType
from typing import Any, Protocol

from .records import Comparison, Mismatch


class Comparator(Protocol):
    def __call__(self, expected: str, got: str) -> Comparison: ...


@dataclass(frozen=True)
class Compare:
    """An exercise's ``compare:``: its method and options as the spec gives them, and what
    compares: ``comparator`` for every case, or the ``checker`` program (relative to the course)
    bound per case (``grader.running.checker_runs.comparator_for``). Exactly one is set."""

    method: str
    options: Mapping[str, Any]
    comparator: Comparator | None = None
    checker: str | None = None

    def __post_init__(self) -> None:
        if (self.comparator is None) == (self.checker is None):
            raise ValueError("a Compare has a comparator or a checker program, and not both")


ComparatorFactory = Callable[[Mapping[str, Any]], Compare]


# ASCII whitespace only: a no-break or ideographic space in a student's output is a character
# of its own, as the statement's "separated by spaces" means.
_SPACE = " \t\r\f\v"
TOKEN = re.compile(f"[^{_SPACE}]+")  # what tokens() returns, with positions (for the caret)


def normalise(text: str) -> list[str]:
    """Lines with CRLF folded to LF, trailing whitespace dropped, trailing blank lines dropped."""
    lines = [line.rstrip(_SPACE) for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def digest(output: str) -> str:
    """The output as the comparison sees it (line ends, trailing blanks), hashed: how a known
    mistake's output is recognised (mistakes.py), in ``grade`` and in the browser alike."""
    return hashlib.sha256("\n".join(normalise(output)).encode()).hexdigest()[:32]


def tokens(line: str) -> list[str]:
    return TOKEN.findall(line)


def _line_level(expected: list[str], got: list[str]) -> Comparison | None:
    """The missing/extra line verdict once the common prefix of lines has matched."""
    if len(got) < len(expected):
        n = len(got) + 1
        note = "the output was empty" if not got else ""
        exp = expected[n - 1]
        return Comparison(
            False, Mismatch.MISSING_LINE, line=n, expected=exp, expected_line=exp, note=note
        )
    if len(got) > len(expected):
        n = len(expected) + 1
        return Comparison(False, Mismatch.EXTRA_LINE, line=n, got=got[n - 1], got_line=got[n - 1])
    return None


# How a program prints a decimal with a fixed number of places: ASCII digits, a minus sign at
# most, no leading zero (so "+3.14" or "03.14" is not "3.14", whatever their value).
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)\.([0-9]+)")
NUMBERS = ("decimals", "none")


@dataclass(frozen=True)
class TokenComparator:
    """Tokens separated by ASCII whitespace; decimals match within ``tolerance_ulps`` of the
    last place.

    A decimal (ASCII digits, a point, digits; a minus sign at most, no leading zero) must be
    printed with exactly as many decimals as the expected one: ``0.06300`` may pass for
    ``0.06299``, ``0.0630`` never does. Everything else, integers included, must match exactly;
    with ``numbers: none``, decimals too.
    """

    tolerance_ulps: int = 1
    numbers: str = "decimals"  # "none": every token compared as text

    def __call__(self, expected: str, got: str) -> Comparison:
        if expected == got:  # most outputs of a class: no need to split 100k lines to know
            return Comparison(True)
        want, have = normalise(expected), normalise(got)
        for n, (exp_line, got_line) in enumerate(zip(want, have, strict=False), start=1):
            if exp_line == got_line:  # same text, same tokens: most lines of most outputs
                continue
            found = self._line(n, exp_line, got_line)
            if found is not None:
                return found
        return _line_level(want, have) or Comparison(True)

    def _line(self, n: int, exp_line: str, got_line: str) -> Comparison | None:
        exp_tokens, got_tokens = tokens(exp_line), tokens(got_line)
        for t, (exp, have) in enumerate(zip(exp_tokens, got_tokens, strict=False), start=1):
            if exp == have:
                continue
            ok, note = self._token(exp, have)
            if not ok:
                return Comparison(
                    False,
                    Mismatch.TOKEN,
                    line=n,
                    token=t,
                    expected=exp,
                    got=have,
                    expected_line=exp_line,
                    got_line=got_line,
                    note=note,
                )
        if len(got_tokens) < len(exp_tokens):
            t = len(got_tokens) + 1
            exp = exp_tokens[t - 1]
            return Comparison(
                False,
                Mismatch.MISSING_TOKEN,
                line=n,
                token=t,
                expected=exp,
                expected_line=exp_line,
                got_line=got_line,
            )
        if len(got_tokens) > len(exp_tokens):
            t = len(exp_tokens) + 1
            have = got_tokens[t - 1]
            return Comparison(
                False,
                Mismatch.EXTRA_TOKEN,
                line=n,
                token=t,
                got=have,
                expected_line=exp_line,
                got_line=got_line,
            )
        return None

    def _token(self, exp: str, have: str) -> tuple[bool, str]:
        exp_match = _DECIMAL.fullmatch(exp) if self.numbers == "decimals" else None
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
        if expected == got:
            return Comparison(True)
        want, have = normalise(expected), normalise(got)
        for n, (exp, line) in enumerate(zip(want, have, strict=False), start=1):
            if exp != line:
                return Comparison(
                    False,
                    Mismatch.LINE,
                    line=n,
                    expected=exp,
                    got=line,
                    expected_line=exp,
                    got_line=line,
                )
        return _line_level(want, have) or Comparison(True)


def _tokens(options: Mapping[str, Any]) -> Compare:
    _only(options, ("tolerance_ulps", "numbers"))
    ulps = options.get("tolerance_ulps", 1)
    if isinstance(ulps, bool) or not isinstance(ulps, int) or ulps < 0:
        raise ValueError(f"tolerance_ulps: must be a whole number >= 0, got {ulps!r}")
    numbers = options.get("numbers", "decimals")
    if numbers not in NUMBERS:
        raise ValueError(f"numbers: must be one of {', '.join(NUMBERS)}, got {numbers!r}")
    return Compare("tokens", options, TokenComparator(tolerance_ulps=ulps, numbers=numbers))


def _exact(options: Mapping[str, Any]) -> Compare:
    _only(options, ())
    return Compare("exact", options, ExactComparator())


def _checker(options: Mapping[str, Any]) -> Compare:
    """A teacher's program decides, for exercises with several right answers (Kattis's output
    validators): ``compare: {method: checker, options: {program: reference/NAME/check.py}}``."""
    _only(options, ("program",))
    program = options.get("program")
    if not isinstance(program, str) or not program.endswith(".py"):
        raise ValueError(f"program: must be a Python file's path in the course, got {program!r}")
    if program.startswith("/") or ".." in program.split("/"):
        raise ValueError(f"program: must be a path inside the course, got {program!r}")
    return Compare("checker", options, checker=program)


def _only(options: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    for key in options:
        if key not in allowed:
            known = ", ".join(allowed) or "none"
            raise ValueError(f"{key}: unknown option (allowed: {known})")


COMPARATORS: Mapping[str, ComparatorFactory] = MappingProxyType(
    {"tokens": _tokens, "exact": _exact, "checker": _checker}
)


def build(method: str, options: Mapping[str, Any]) -> Compare:
    """Raises ``ValueError`` with a message fit to follow ``compare.``."""
    factory = COMPARATORS.get(method)
    if factory is None:
        raise ValueError(f"method: unknown comparator {method!r} (known: {', '.join(COMPARATORS)})")
    return factory(MappingProxyType(dict(options)))
