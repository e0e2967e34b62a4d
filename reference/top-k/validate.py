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


if __name__ == "__main__":
    why = problem(sys.stdin.buffer.read())
    if why:
        sys.exit(why)
