"""Accepted: a regular expression to read each round, a function per round."""

import re
import sys

ROUND = re.compile(r"\s*draft:\s*(.*?)\s*\|\s*target:\s*(.*?)\s*$")


def step(draft: list[str], target: list[str]) -> list[str]:
    n = 0
    while n < len(draft) and draft[n] == target[n]:
        n += 1
    return target[: n + 1]  # the accepted ones equal the target's, then its own token


total = 0
number = 0
for line in sys.stdin:
    match = ROUND.match(line)
    if not line.strip() or match is None:
        continue
    number += 1
    got = step(match.group(1).split(), match.group(2).split())
    total += len(got)
    print(f"round {number}: +{len(got)} tokens: {' '.join(got)}")
print(f"{total} tokens in {number} target passes ({total / number:.2f} per pass)")
