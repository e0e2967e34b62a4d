"""Accepted: exact arithmetic in integers (weights scaled by 10**d), rounding ties to even."""

import sys
from fractions import Fraction


def half_even(n, d):
    """n / d (d > 0) rounded to the nearest integer, ties to even, exactly."""
    q, r = divmod(n, d)
    if 2 * r > d or (2 * r == d and q % 2):
        q += 1
    return q


def fixed(value):
    """A Fraction to 5 decimals, ties to even."""
    units = half_even(value.numerator * 10**5, value.denominator)
    sign = "-" if units < 0 else ""
    return f"{sign}{abs(units) // 10**5}.{abs(units) % 10**5:05d}"


lines = sys.stdin.read().split("\n")
texts = lines[0].split()
places = max(len(t.split(".")[1]) if "." in t else 0 for t in texts)
weights = [int(Fraction(t) * 10**places) for t in texts]  # exact: at most `places` decimals
g = int(lines[1])
error_sum = 0  # in units of 1 / (127 * 10**places)
for i, start in enumerate(range(0, len(weights), g), start=1):
    group = weights[start : start + g]
    m = max(abs(w) for w in group)
    q = [half_even(127 * w, m) for w in group] if m else [0] * len(group)
    error_sum += sum(abs(127 * w - k * m) for w, k in zip(group, q))
    print(f"group {i}: scale {fixed(Fraction(m, 127 * 10**places))} q {' '.join(map(str, q))}")
print(f"mean error: {fixed(Fraction(error_sum, 127 * 10**places * len(weights)))}")
