"""Accepted: decimal.Decimal at 60 digits, q = w / scale with scale = m / 127, as written."""

import sys
from decimal import ROUND_HALF_EVEN, Decimal, localcontext

FIVE = Decimal("0.00001")

with localcontext() as context:
    context.prec = 60
    lines = sys.stdin.read().split("\n")
    weights = [Decimal(w) for w in lines[0].split()]
    g = int(lines[1])
    total = Decimal(0)
    for i, start in enumerate(range(0, len(weights), g), start=1):
        group = weights[start : start + g]
        scale = max(abs(w) for w in group) / 127
        if scale:
            q = [(w / scale).to_integral_value(rounding=ROUND_HALF_EVEN) for w in group]
        else:
            q = [Decimal(0)] * len(group)
        total += sum(abs(w - k * scale) for w, k in zip(group, q))
        shown = scale.quantize(FIVE, rounding=ROUND_HALF_EVEN)
        print(f"group {i}: scale {shown} q {' '.join(str(int(k)) for k in q)}")
    mean = (total / len(weights)).quantize(FIVE, rounding=ROUND_HALF_EVEN)
    print(f"mean error: {mean}")
