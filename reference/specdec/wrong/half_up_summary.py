"""Known wrong: rounds tokens per pass half up (1.125 -> 1.13) instead of as f"{x:.2f}" does.

expect: wrong_answer
"""

import sys
from decimal import ROUND_HALF_UP, Decimal

total = rounds = 0
for line in sys.stdin:
    if not line.strip():
        continue
    left, right = line.split("|")
    draft, target = left.split()[1:], right.split()[1:]
    n = 0
    while n < len(draft) and draft[n] == target[n]:
        n += 1
    tokens = [*draft[:n], target[n]]
    rounds += 1
    total += len(tokens)
    print(f"round {rounds}: +{len(tokens)} tokens: {' '.join(tokens)}")
ratio = (Decimal(total) / Decimal(rounds)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
print(f"{total} tokens in {rounds} target passes ({ratio} per pass)")
