"""Known wrong: finds the highest logit k times over, O(n * k): too slow for 100,000 tokens.

Its answers are right; at the statement's maximum size, with a large k, it times out.

expect: timeout
"""

import sys

first, *rest = sys.stdin.read().splitlines()
vocab = [line.split(" ") for line in rest]
values = [float(logit) for _, logit in vocab]
found = []
for _ in range(int(first)):
    best = max(range(len(values)), key=values.__getitem__)
    token, logit = vocab.pop(best)
    found.append(f"{token} {logit}\n")
    values.pop(best)
sys.stdout.write("".join(found))
