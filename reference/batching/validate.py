"""Accept a batching input (exit 0) or reject it with the reason on stderr (exit 1).

The contract: line 1 is ``MODE BASE PER_TOKEN PER_SEQ MAX_BATCH``, then 1 to 10,000 lines
``ID ARRIVAL PROMPT OUTPUT``, fields separated by single spaces, no blank line (the last line
may end with a newline or not), ids distinct.
"""

import re
import sys

MAX_REQUESTS = 10_000  # the statement's bounds
MAX_BASE = 1_000
MAX_PER_TOKEN = 1_000
MAX_PER_SEQ = 1_000
MAX_BATCH = 10_000
MAX_ID = 1_000_000
MAX_ARRIVAL = 1_000_000_000
MAX_PROMPT = 10_000
MAX_OUTPUT = 100
MODES = ("static", "continuous")
NUMBER = re.compile(r"0|[1-9][0-9]*")


def _number(text: str, low: int, high: int) -> int | None:
    if NUMBER.fullmatch(text) is None:
        return None
    value = int(text)
    return value if low <= value <= high else None


def problem(text: str) -> str | None:
    if not text:
        return "the input is empty"
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the newline at the end of the last line
    first = lines[0].split(" ")
    if len(first) != 5:
        return "line 1: expected 'MODE BASE PER_TOKEN PER_SEQ MAX_BATCH'"
    if first[0] not in MODES:
        return f"line 1: MODE must be static or continuous, got {first[0]!r}"
    for name, field, low, high in (
        ("BASE", first[1], 1, MAX_BASE),
        ("PER_TOKEN", first[2], 0, MAX_PER_TOKEN),
        ("PER_SEQ", first[3], 0, MAX_PER_SEQ),
        ("MAX_BATCH", first[4], 1, MAX_BATCH),
    ):
        if _number(field, low, high) is None:
            return f"line 1: {name} must be a whole number from {low} to {high:,}, got {field!r}"
    requests = lines[1:]
    if not requests:
        return "no requests: at least one line after line 1 is needed"
    if len(requests) > MAX_REQUESTS:
        return f"at most {MAX_REQUESTS:,} requests, got {len(requests):,}"
    seen: set[int] = set()
    for number, line in enumerate(requests, start=2):
        fields = line.split(" ")
        if len(fields) != 4:
            return f"line {number}: expected 'ID ARRIVAL PROMPT OUTPUT', got {line!r}"
        for name, field, low, high in (
            ("ID", fields[0], 1, MAX_ID),
            ("ARRIVAL", fields[1], 0, MAX_ARRIVAL),
            ("PROMPT", fields[2], 1, MAX_PROMPT),
            ("OUTPUT", fields[3], 1, MAX_OUTPUT),
        ):
            if _number(field, low, high) is None:
                return (
                    f"line {number}: {name} must be a whole number from {low} to {high:,} "
                    f"written without leading zeros, got {field!r}"
                )
        rid = int(fields[0])
        if rid in seen:
            return f"line {number}: id {rid} appears twice"
        seen.add(rid)
    return None


def no_final_newline(text: str) -> bool:
    """The last line ends without a newline, which the statement allows."""
    return not text.endswith("\n")


if __name__ == "__main__":
    why = problem(sys.stdin.read())
    if why:
        sys.exit(why)
