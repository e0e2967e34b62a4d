"""Accepted: compare draft and target with zip, stop at the first mismatch."""

import sys

total = rounds = 0
for line in sys.stdin:
    if not line.strip():
        continue
    left, right = line.split("|")
    draft, target = left.split()[1:], right.split()[1:]
    added = []
    for guess, truth in zip(draft, target):
        if guess != truth:
            break
        added.append(guess)
    added.append(target[len(added)])
    rounds += 1
    total += len(added)
    print(f"round {rounds}: +{len(added)} tokens: {' '.join(added)}")
print(f"{total} tokens in {rounds} target passes ({total / rounds:.2f} per pass)")
