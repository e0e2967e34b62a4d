"""Known wrong: divides with // (whole-number division), so 5 tokens in 3 passes print 1.00.

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
print(f"{total} tokens in {rounds} target passes ({total // rounds:.2f} per pass)")
