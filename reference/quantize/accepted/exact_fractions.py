"""Accepted: exact arithmetic throughout (fractions.Fraction), rounding ties to even."""

import sys
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction


def fixed(value: Fraction) -> str:
    """``value`` to 5 decimals, rounded half to even, exactly."""
    scaled = value * 10**5
    q = Decimal(scaled.numerator) / Decimal(scaled.denominator)
    return str(
        (q.quantize(Decimal(1), rounding=ROUND_HALF_EVEN) / 10**5).quantize(Decimal("0.00001"))
    )


lines = sys.stdin.read().split("\n")
weights = [Fraction(w) for w in lines[0].split()]
g = int(lines[1])
errors = []
for i, start in enumerate(range(0, len(weights), g), start=1):
    group = weights[start : start + g]
    scale = max(abs(w) for w in group) / 127
    q = [round(w / scale) for w in group] if scale else [0] * len(group)
    errors += [abs(w - k * scale) for w, k in zip(group, q)]
    print(f"group {i}: scale {fixed(scale)} q " + " ".join(str(k) for k in q))
print(f"mean error: {fixed(sum(errors) / len(errors))}")
