"""Accept a quantize input (exit 0) or reject it with the reason on stderr (exit 1).

Beyond the format, an input is refused when correct solutions could disagree on it: a weight
whose w / scale lies within float error of a .5 boundary without being exactly one in float64
too (a decimal tie such as 0.0777 * 127 / 0.9398 = 10.5 is 10.499999... or 10.500000...1 in
float64, depending on how the division is written), a scale or mean error printed at 5
decimals that sits on a rounding boundary, and numbers float64 cannot hold faithfully.
Deliberate binary ties (2.5, -3.5: exact in float64 and in exact arithmetic) are kept.
"""

import re
import sys
from fractions import Fraction

NUMBER = re.compile(r"-?([0-9]+(\.[0-9]*)?|\.[0-9]+)")  # ASCII digits only
MAX_WEIGHTS = 200_000
MAX_DIGITS = 12  # significant digits of a weight: well inside float64's 15
MAX_MAGNITUDE = 1e6
MIN_MAGNITUDE = 1e-6  # below it (but not 0), scales and errors vanish at 5 decimals
MARGIN = Fraction(1, 10**6)  # how far from a rounding boundary every value must stay


def _digits(text: str) -> int:
    return len(text.lstrip("-").replace(".", "").lstrip("0"))


def _near_boundary(value: Fraction, unit: Fraction) -> bool:
    """Whether ``value`` lies within MARGIN (relative to ``unit``) of a half-unit boundary."""
    position = value / unit - Fraction(1, 2)
    offset = position - round(position)
    return abs(offset) < MARGIN and offset != 0


def fragile(weights: list[str], group: int) -> str | None:
    """Why float64 and exact arithmetic could print different answers here, or None."""
    found = first_fragile(weights, group)
    return found[1] if found else None


def first_fragile(weights: list[str], group: int) -> tuple[int, str] | None:
    """The first weight (its index; -1 for the mean) where correct solutions may disagree."""
    exact = [Fraction(w) for w in weights]
    floats = [float(w) for w in weights]
    errors = []
    for start in range(0, len(exact), group):
        w = exact[start : start + group]
        m = max(abs(x) for x in w)
        if m == 0:
            errors += [Fraction(0)] * len(w)
            continue
        scale = m / 127
        if _near_boundary(scale, Fraction(1, 10**5)):
            biggest = start + w.index(max(w, key=abs))
            return biggest, f"group {start // group + 1}: its scale sits on a rounding boundary"
        fm = max(abs(x) for x in floats[start : start + group])
        for i, x in enumerate(w):
            t = x / scale
            q = round(t)  # exact, ties to even
            f = floats[start + i]
            # the ways a correct solution may write it, in float64, must all agree with exact
            if {round(f / (fm / 127)), round(f * 127 / fm), round(f / fm * 127)} != {q}:
                return (
                    start + i,
                    f"weight {start + i + 1} ({weights[start + i]}) is a tie float64 breaks",
                )
            errors.append(abs(x - q * scale))
    mean = sum(errors) / len(errors)
    if _near_boundary(mean, Fraction(1, 10**5)):
        return -1, "the mean error sits on a rounding boundary"
    return None


def problem(text: str) -> str | None:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) != 2:
        return f"expected 2 lines (weights, group size), got {len(lines)}"
    weights, group = lines
    if not weights or any(not NUMBER.fullmatch(w) for w in weights.split(" ")):
        return "line 1 must be decimal numbers separated by single spaces"
    if not re.fullmatch(r"[1-9][0-9]*", group):
        return f"line 2 must be a whole number >= 1, got {group!r}"
    values = weights.split(" ")
    if len(values) > MAX_WEIGHTS:
        return f"at most {MAX_WEIGHTS} weights, got {len(values)}"
    for w in values:
        if _digits(w) > MAX_DIGITS:
            return f"weight {w} has more than {MAX_DIGITS} significant digits"
        if abs(float(w)) > MAX_MAGNITUDE or 0 < abs(float(w)) < MIN_MAGNITUDE:
            return f"weight {w} is outside {MIN_MAGNITUDE:g} <= |w| <= {MAX_MAGNITUDE:g} (or 0)"
    return fragile(values, int(group))


if __name__ == "__main__":
    why = problem(sys.stdin.read())
    if why:
        sys.exit(why)
