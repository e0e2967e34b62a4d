"""Accept a top-k input (exit 0) or reject it with the reason on stderr (exit 1).

The contract: ASCII only, lines ending in "\\n" (the last one may lack it), no blank lines.
Line 1 is k, a whole number with 1 <= k <= the number of tokens; every other line is
``TOKEN LOGIT`` with one space between. Tokens are unique, 1 to 32 ASCII letters, digits or
underscores. A logit is an optional minus sign, a whole part without leading zeros below 1000,
and optionally a point with 1 to 4 digits (``-1.25``, ``3``, ``1.50``); zero is never negative.
So |logit| < 1000 with at most 4 decimals: float64 orders them exactly as decimals do.
"""

import re
import sys
from decimal import ROUND_FLOOR, Decimal

K = re.compile(r"[1-9][0-9]*")
TOKEN = re.compile(r"[A-Za-z0-9_]{1,32}")
LOGIT = re.compile(r"-?(0|[1-9][0-9]{0,2})(\.[0-9]{1,4})?")
ZERO = re.compile(r"-0(\.0+)?")
MAX_TOKENS = 100_000


def problem(data: bytes) -> str | None:
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as exc:
        return f"not ASCII: byte {data[exc.start]:#x} at offset {exc.start}"
    if not text.endswith("\n"):
        text += "\n"
    lines = text.split("\n")[:-1]
    if len(lines) < 2:
        return "expected k on line 1, then at least one 'TOKEN LOGIT' line"
    if not K.fullmatch(lines[0]):
        return f"line 1: k must be a whole number >= 1, got {lines[0][:40]!r}"
    entries = lines[1:]
    if len(entries) > MAX_TOKENS:
        return f"at most {MAX_TOKENS} tokens, got {len(entries)}"
    if int(lines[0]) > len(entries):
        return f"line 1: k = {lines[0]} is more than the {len(entries)} tokens"
    seen: dict[str, int] = {}
    for number, line in enumerate(entries, start=2):
        parts = line.split(" ")
        if len(parts) != 2:
            return f"line {number}: expected 'TOKEN LOGIT' with one space, got {line[:40]!r}"
        token, logit = parts
        if not TOKEN.fullmatch(token):
            return f"line {number}: token must be 1-32 ASCII letters, digits or _, got {token!r}"
        if not LOGIT.fullmatch(logit):
            return f"line {number}: logit must look like -1.25 (|x| < 1000), got {logit!r}"
        if ZERO.fullmatch(logit):
            return f"line {number}: negative zero {logit!r}"
        if token in seen:
            return f"line {number}: token {token} already on line {seen[token]}"
        seen[token] = number
    return None


# What a case exercises, for the statement's clauses (clauses: in exercises/top-k.yaml): each
# is true of a valid input that exercises its clause.


def _entries(text: str) -> tuple[int, list[tuple[str, str]]]:
    """k, and each vocabulary entry as (TOKEN, LOGIT), as written."""
    first, *rest = text.rstrip("\n").split("\n")
    return int(first), [(token, logit) for token, logit in (line.split(" ") for line in rest)]


def _ranked(text: str) -> tuple[int, list[Decimal]]:
    """k, and every logit's value, highest first."""
    k, entries = _entries(text)
    return k, sorted((Decimal(logit) for _, logit in entries), reverse=True)


def _kept(text: str) -> list[str]:
    """The logits as written that some right answer prints: those at least the k-th value."""
    k, ranked = _ranked(text)
    return [logit for _, logit in _entries(text)[1] if Decimal(logit) >= ranked[k - 1]]


def not_the_first_k(text: str) -> bool:
    """Some of the first k entries is not among the k highest: the input is not in order."""
    k, entries = _entries(text)
    kth = _ranked(text)[1][k - 1]
    return any(Decimal(logit) < kth for _, logit in entries[:k])


def k_is_one(text: str) -> bool:
    return _entries(text)[0] == 1


def k_is_all(text: str) -> bool:
    """k is the number of tokens: every token is printed, and there is no (k+1)-th."""
    k, entries = _entries(text)
    return k == len(entries)


def token_beyond_lowercase(text: str) -> bool:
    """A token holding a capital, a digit or an underscore, not only a-z."""
    return any(not token.isalpha() or not token.islower() for token, _ in _entries(text)[1])


def negative_logit(text: str) -> bool:
    return any(logit.startswith("-") for _, logit in _entries(text)[1])


def three_digit_logit(text: str) -> bool:
    """A logit of 100 or more in size, a whole part of three digits (the most allowed)."""
    return any(len(logit.lstrip("-").partition(".")[0]) == 3 for _, logit in _entries(text)[1])


def fourth_decimal_counts(text: str) -> bool:
    """Two different logits that are equal to 3 decimals: only the 4th tells them apart."""
    values = {Decimal(logit) for _, logit in _entries(text)[1]}
    return len({v.quantize(Decimal("0.001"), rounding=ROUND_FLOOR) for v in values}) < len(values)


def most_tokens(text: str) -> bool:
    return len(_entries(text)[1]) == MAX_TOKENS


def float_reformats(text: str) -> bool:
    """A logit some right answer prints that str(float(...)) writes otherwise (0.50, 7)."""
    return any(str(float(logit)) != logit for logit in _kept(text))


def order_matters(text: str) -> bool:
    """The k highest hold two different values: lowest first is then another order."""
    k, ranked = _ranked(text)
    return ranked[0] != ranked[k - 1]


def text_order_differs(text: str) -> bool:
    """Sorting the logits as text gives other values, or in another order, than as numbers
    ("9.5" sorts above "10.25", "-1" above "-0.5")."""
    k, ranked = _ranked(text)
    as_text = sorted((logit for _, logit in _entries(text)[1]), reverse=True)
    return [Decimal(logit) for logit in as_text[:k]] != ranked[:k]


def same_value_written_apart(text: str) -> bool:
    """Two logits of one value written differently (1.5 and 1.50)."""
    written: dict[Decimal, set[str]] = {}
    for _, logit in _entries(text)[1]:
        written.setdefault(Decimal(logit), set()).add(logit)
    return any(len(forms) > 1 for forms in written.values())


def tie_inside_top_k(text: str) -> bool:
    """Two tokens of one value, both printed in every right answer: either order is right."""
    k, ranked = _ranked(text)
    last = {value: i for i, value in enumerate(ranked)}  # each value's last place
    return any(ranked[i] == ranked[i + 1] and last[ranked[i]] < k for i in range(k - 1))


def tie_at_k(text: str) -> bool:
    """The k-th and the (k+1)-th highest are equal: a choice between tied tokens."""
    k, ranked = _ranked(text)
    return k < len(ranked) and ranked[k - 1] == ranked[k]


def no_final_newline(text: str) -> bool:
    """The last line ends without a newline, which the statement allows."""
    return not text.endswith("\n")


if __name__ == "__main__":
    why = problem(sys.stdin.buffer.read())
    if why:
        sys.exit(why)
