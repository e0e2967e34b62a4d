"""Accepted: decimal.Decimal at 30 digits, with round() to one decimal."""

import sys
from decimal import Decimal, getcontext

getcontext().prec = 30
out = []
for line in sys.stdin.read().split("\n"):
    if line.strip():
        name, params, size, bandwidth, batch = line.split()
        value = Decimal(bandwidth) / (Decimal(params) * Decimal(size)) * Decimal(batch)
        out.append(f"{name}: {round(value, 1)} tokens/s")
print("\n".join(out))
