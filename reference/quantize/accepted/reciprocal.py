"""Accepted: pure Python, q = round(w * (127 / m)): one reciprocal per group, as kernels write it."""

import sys

lines = sys.stdin.read().split("\n")
weights = [float(w) for w in lines[0].split()]
g = int(lines[1])
total = 0.0
for i, start in enumerate(range(0, len(weights), g), start=1):
    group = weights[start : start + g]
    m = max(abs(w) for w in group)
    scale = m / 127
    inverse = 127 / m if m else 0.0  # multiply by it: no division per weight
    q = [round(w * inverse) for w in group]
    total += sum(abs(w - k * scale) for w, k in zip(group, q))
    print(f"group {i}: scale {scale:.5f} q {' '.join(map(str, q))}")
print(f"mean error: {total / len(weights):.5f}")
