"""Known wrong: keeps every draft token that matches, even after the first mismatch.

expect: wrong_answer
"""

import sys

total = rounds = 0
for line in sys.stdin:
    if not line.strip():
        continue
    left, right = line.split("|")
    draft, target = left.split()[1:], right.split()[1:]
    kept = [d for d, t in zip(draft, target) if d == t]
    n = next((i for i, (d, t) in enumerate(zip(draft, target)) if d != t), len(draft))
    tokens = [*kept, target[n]]
    rounds += 1
    total += len(tokens)
    print(f"round {rounds}: +{len(tokens)} tokens: {' '.join(tokens)}")
print(f"{total} tokens in {rounds} target passes ({total / rounds:.2f} per pass)")
