"""Known wrong: truncates tokens per pass to 2 decimals instead of rounding.

expect: wrong_answer
"""

import sys

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
ratio = int(total / rounds * 100) / 100
print(f"{total} tokens in {rounds} target passes ({ratio:.2f} per pass)")
