"""Accepted: exact arithmetic (fractions.Fraction), rounded half to even at one decimal."""

import sys
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

for line in sys.stdin:
    if not line.strip():
        continue
    name, params, size, bandwidth, batch = line.split()
    rate = Fraction(bandwidth) / (Fraction(params) * Fraction(size)) * int(batch)
    tenths = Decimal(rate.numerator * 10) / Decimal(rate.denominator)
    shown = tenths.quantize(Decimal(1), rounding=ROUND_HALF_EVEN) / 10
    print(f"{name}: {shown.quantize(Decimal('0.1'))} tokens/s")
