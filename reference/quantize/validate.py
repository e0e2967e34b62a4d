"""Accept a quantize input (exit 0) or reject it with the reason on stderr (exit 1)."""

import re
import sys

NUMBER = re.compile(r"-?(\d+\.?\d*|\.\d+)")


def problem(text: str) -> str | None:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) != 2:
        return f"expected 2 lines (weights, group size), got {len(lines)}"
    weights, group = lines
    if not weights or any(not NUMBER.fullmatch(w) for w in weights.split(" ")):
        return "line 1 must be decimal numbers separated by single spaces"
    if not re.fullmatch(r"[1-9]\d*", group):
        return f"line 2 must be a whole number >= 1, got {group!r}"
    return None


if __name__ == "__main__":
    why = problem(sys.stdin.read())
    if why:
        sys.exit(why)
