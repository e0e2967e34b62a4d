"""Accepted: pure Python, q = round(w * 127 / m): the statement's formula, rearranged."""

import sys

lines = sys.stdin.read().split("\n")
weights = [float(w) for w in lines[0].split()]
g = int(lines[1])
total = 0.0
for i, start in enumerate(range(0, len(weights), g), start=1):
    group = weights[start : start + g]
    m = max(abs(w) for w in group)
    q = [round(w * 127 / m) for w in group] if m else [0] * len(group)
    scale = m / 127
    total += sum(abs(w - k * scale) for w, k in zip(group, q))
    print(f"group {i}: scale {scale:.5f} q {' '.join(map(str, q))}")
print(f"mean error: {total / len(weights):.5f}")
