"""Known wrong: removes the labels with str.replace, and with them a token spelled like one.

expect: wrong_answer
"""

import sys

rounds = total = 0
for line in sys.stdin.read().splitlines():
    if not line.strip():
        continue
    left, right = line.replace("draft:", "").replace("target:", "").split("|")
    draft, target = left.split(), right.split()
    accepted = 0
    while accepted < len(draft) and draft[accepted] == target[accepted]:
        accepted += 1
    added = target[: accepted + 1]
    rounds += 1
    total += len(added)
    print(f"round {rounds}: +{len(added)} tokens: {' '.join(added)}")
print(f"{total} tokens in {rounds} target passes ({total / rounds:.2f} per pass)")
