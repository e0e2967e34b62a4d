"""Accepted: decimal.Decimal at 40 digits, one weight at a time, a generator per group."""

import sys
from decimal import ROUND_HALF_EVEN, Decimal, getcontext

getcontext().prec = 40


def groups(values, size):
    for start in range(0, len(values), size):
        yield values[start : start + size]


def five(x):
    return x.quantize(Decimal("0.00001"), rounding=ROUND_HALF_EVEN)


text = sys.stdin.read().split("\n")
weights = [Decimal(w) for w in text[0].split()]
errors = Decimal(0)
for number, group in enumerate(groups(weights, int(text[1])), start=1):
    top = max(abs(w) for w in group)
    scale = top / 127
    # w * 127 / top, not w / scale: one rounding (of the exact quotient, to 40 digits), so an
    # exact tie (0.5 -0.25: -63.5) stays one; w / scale divides by a rounded scale (-63.4999...)
    q = [(w * 127 / top).to_integral_value(rounding=ROUND_HALF_EVEN) if top else 0 for w in group]
    errors += sum(abs(w - k * scale) for w, k in zip(group, q))
    print(f"group {number}: scale {five(scale)} q {' '.join(str(int(k)) for k in q)}")
print(f"mean error: {five(errors / len(weights))}")
