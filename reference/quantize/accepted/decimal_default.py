"""Accepted: decimal.Decimal in Python's default context (28 digits), round(w / scale).

The statement blesses Decimal arithmetic: at the default precision m / 127 is rounded, and
w / (m / 127) for w = m / 2 can come out 63.4999... (m = 134) where exact arithmetic says
63.5; the validator refuses such inputs, and this solution holds it to that.
"""

import sys
from decimal import Decimal

FIVE = Decimal("0.00001")

lines = sys.stdin.read().split("\n")
weights = [Decimal(w) for w in lines[0].split()]
g = int(lines[1])
total = Decimal(0)
for i, start in enumerate(range(0, len(weights), g), start=1):
    group = weights[start : start + g]
    scale = max(abs(w) for w in group) / 127
    q = [round(w / scale) for w in group] if scale else [0] * len(group)
    total += sum(abs(w - k * scale) for w, k in zip(group, q, strict=True))
    print(f"group {i}: scale {scale.quantize(FIVE)} q {' '.join(str(k) for k in q)}")
print(f"mean error: {(total / len(weights)).quantize(FIVE)}")
