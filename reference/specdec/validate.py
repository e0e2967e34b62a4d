"""Accept a specdec input (exit 0) or reject it with the reason on stderr (exit 1)."""

import re
import sys

ROUND = re.compile(r"draft:((?: [^\s|]+)+) \| target:((?: [^\s|]+)+)")


def problem(text: str) -> str | None:
    rounds = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        match = ROUND.fullmatch(line)
        if match is None:
            return f"line {number}: expected 'draft: d1 ... dk | target: t1 ... tk+1'"
        k, targets = len(match.group(1).split()), len(match.group(2).split())
        if targets != k + 1:
            return f"line {number}: {k} draft tokens need {k + 1} target tokens, got {targets}"
        rounds += 1
    return None if rounds else "no rounds: at least one non-blank line is needed"


if __name__ == "__main__":
    why = problem(sys.stdin.read())
    if why:
        sys.exit(why)
