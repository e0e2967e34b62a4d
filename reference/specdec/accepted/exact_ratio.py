"""Accepted: the ratio as a Fraction, rounded half to even to two decimals by hand."""

import sys
from fractions import Fraction

total = rounds = 0
for line in sys.stdin:
    if "|" not in line:
        continue
    draft, target = (side.split()[1:] for side in line.split("|"))
    n = next((i for i, (d, t) in enumerate(zip(draft, target)) if d != t), len(draft))
    rounds += 1
    total += n + 1
    print(f"round {rounds}: +{n + 1} tokens: {' '.join(target[: n + 1])}")
hundredths = round(Fraction(total, rounds) * 100)
print(
    f"{total} tokens in {rounds} target passes ({hundredths // 100}.{hundredths % 100:02d} per pass)"
)
