"""Accept a quantize input (exit 0) or reject it with the reason on stderr (exit 1).

Beyond the format, an input is refused when correct solutions could disagree on it. Every
reasonable way of writing q = round(w / scale) must give the same integer: in float64 the
direct w / (m / 127), w * 127 / m, w / m * 127, the reciprocal w * (127 / m) and
w * (1 / scale); exactly (integers here, as fractions.Fraction would); and in decimal.Decimal
w / (m / 127) and w * 127 / m, at Python's default 28 digits and at 60 (in Decimal the other
writings break even binary ties: 2.5 / 127 * 127 is 2.4999...). So a decimal tie
(0.0777 * 127 / 0.9398 is 10.5 exactly, 10.499999... or 10.500000...1 in float64 depending
on the writing) is refused, and so is any w / scale within float error of a .5 boundary; a
deliberate binary tie (2.5 in a group whose largest |w| is 127: exact in every writing
checked) is kept.

The scale and the mean error, printed to 5 decimals, must print the same in float64 (any
order of summation), as a 60-digit Decimal and exactly: each stays clear of a rounding
boundary (a 5-decimal half-unit) by more than float64's worst-case error on it.
"""

import re
import sys
from decimal import ROUND_HALF_EVEN, Context, Decimal, localcontext
from fractions import Fraction

NUMBER = re.compile(r"-?([0-9]+(\.[0-9]*)?|\.[0-9]+)")  # ASCII digits only
MAX_WEIGHTS = 200_000
MAX_DIGITS = 12  # significant digits of a weight: well inside float64's 15
MAX_MAGNITUDE = 1e6
MIN_MAGNITUDE = 1e-6  # below it (but not 0), scales and errors vanish at 5 decimals
MARGIN = Fraction(1, 10**6)  # how far from a rounding boundary, relative to its unit, at least
NEAR_TIE = Fraction(1, 10**9)  # |w / scale - (k + 0.5)| below it, and not 0: a near tie
UNIT = Fraction(1, 10**5)  # the printed values' last place
U = Fraction(1, 2**53)  # float64's unit roundoff
DECIMAL = Context(prec=60, rounding=ROUND_HALF_EVEN)
# the Decimal contexts a solution may divide in: Python's default (decimal.DefaultContext: 28
# digits, which "m, m/2" with m = 134 rounds to 63.4999...: q = 63, not 64), and 60 digits
CONTEXTS = (("a 28-digit", Context(prec=28, rounding=ROUND_HALF_EVEN)), ("a 60-digit", DECIMAL))
WRITINGS = (
    ("w / (m / 127)", lambda w, m: w / (m / 127)),
    ("w * 127 / m", lambda w, m: w * 127 / m),
    ("w / m * 127", lambda w, m: w / m * 127),
    ("w * (127 / m)", lambda w, m: w * (127 / m)),
    ("w * (1 / scale)", lambda w, m: w * (1 / (m / 127))),
)


def _digits(text: str) -> int:
    return len(text.lstrip("-").replace(".", "").lstrip("0"))


def _boundary_distance(value: Fraction) -> Fraction:
    """How far ``value`` is from the nearest 5-decimal rounding boundary (a half-unit)."""
    position = value / UNIT - Fraction(1, 2)
    return abs(position - round(position)) * UNIT


def _integers(weights: list[str]) -> tuple[list[int], int]:
    """The weights as integers in units of 10**-places, exactly, and ``places``."""
    places = max(len(w.partition(".")[2]) for w in weights)
    return [int(Fraction(w) * 10**places) for w in weights], places


def _five(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.00001"), rounding=ROUND_HALF_EVEN))


def _tie_breaker(text: str, top: str, q: int) -> str | None:
    """How a writing of w / scale rounds a tie otherwise than exact arithmetic, or None."""
    w, m = float(text), abs(float(top))
    dw, dm = Decimal(text), abs(Decimal(top))
    found: list[tuple[str, Decimal | int]] = [
        (f"float64 {name}", round(writing(w, m))) for name, writing in WRITINGS
    ]
    for digits, context in CONTEXTS:
        with localcontext(context):  # the operators below round to its digits
            found += [
                (f"{digits} Decimal {name}", writing(dw, dm)) for name, writing in WRITINGS[:2]
            ]
    for name, value in found:
        got = int(Decimal(value).to_integral_value(rounding=ROUND_HALF_EVEN))
        if got != q:
            return f"{name} rounds to {got}, exact arithmetic to {q}"
    return None


def fragile(weights: list[str], group: int) -> str | None:
    """Why float64 and exact arithmetic could print different answers here, or None."""
    found = first_fragile(weights, group)
    return found[1] if found else None


def first_fragile(weights: list[str], group: int) -> tuple[int, str] | None:
    """The first weight (its index; -1 for the mean) where correct solutions may disagree."""
    exact, places = _integers(weights)
    floats = [float(w) for w in weights]
    error_sum = 0  # exactly, in units of 1 / (127 * 10**places)
    float_sum = 0.0  # the plain float64 writing, to compare the printed mean
    sizes = 0.0  # the sum of |w| + scale: what float64's error on each |w - q * scale| scales by
    for start in range(0, len(exact), group):
        w = exact[start : start + group]
        m = max(abs(x) for x in w)
        if m == 0:
            continue
        biggest = start + [abs(x) for x in w].index(m)
        fm = abs(floats[biggest])
        scale = Fraction(m, 127 * 10**places)
        if _boundary_distance(scale) <= MARGIN * UNIT or f"{fm / 127:.5f}" != _five(
            DECIMAL.divide(abs(Decimal(weights[biggest])), 127)
        ):
            return biggest, f"group {start // group + 1}: its scale sits on a rounding boundary"
        for n, x in enumerate(w, start=start):
            q, rest = divmod(127 * x, m)  # 127 x / m = q + rest / m, 0 <= rest < m
            if 2 * rest > m or (2 * rest == m and q % 2):
                q += 1
            if 2 * rest == m:
                breaker = _tie_breaker(weights[n], weights[biggest], q)
                if breaker is not None:
                    return n, f"weight {n + 1} ({weights[n]}) is a tie that {breaker}"
            elif abs(2 * rest - m) < 2 * m * NEAR_TIE:
                return n, f"weight {n + 1} ({weights[n]}) is within float error of a .5 tie"
            error_sum += abs(127 * x - q * m)
            float_sum += abs(floats[n] - q * (fm / 127))
            sizes += abs(floats[n]) + fm / 127
    count = len(exact)
    mean = Fraction(error_sum, 127 * 10**places * count)
    # each |w - q * scale| errs by at most a few u times |w| + scale (8 u here, for any writing);
    # summing in any order, by at most (count - 1) u times the sum; the division, by u more
    bound = 8 * U * Fraction(sizes) * (1 + count * U) / count + (count + 1) * U * mean
    if _boundary_distance(mean) <= max(MARGIN * UNIT, 2 * bound) or f"{float_sum / count:.5f}" != (
        _five(DECIMAL.divide(mean.numerator, mean.denominator))
    ):
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


# What a case exercises, for the statement's clauses (clauses: in exercises/quantize.yaml):
# each is true of a valid input that exercises its clause.


def _parsed(text: str) -> tuple[list[str], int]:
    """The weights as written, and the group size."""
    weights, group = text.split("\n")[:2]
    return weights.split(" "), int(group)


def _units(weights: list[str]) -> tuple[list[int], int]:
    """The weights as integers in units of 10**-places, exactly, and ``places`` (``_integers``
    without a Fraction per weight: 200,000 of them, once per predicate)."""
    places = max(len(w.partition(".")[2]) for w in weights)
    found = []
    for w in weights:
        whole, _, part = w.lstrip("-").partition(".")
        value = int(whole or "0") * 10**places + int(part.ljust(places, "0") or "0")
        found.append(-value if w.startswith("-") else value)
    return found, places


def _groups(text: str) -> tuple[list[list[int]], int]:
    """The groups, each weight in units of 10**-places, and ``places``."""
    weights, group = _parsed(text)
    exact, places = _units(weights)
    return [exact[i : i + group] for i in range(0, len(exact), group)], places


def _q(x: int, m: int) -> int:
    """round(127 x / m), halves to even, exactly (m > 0)."""
    q, rest = divmod(127 * x, m)
    return q + 1 if 2 * rest > m or (2 * rest == m and q % 2) else q


def scales_differ(text: str) -> bool:
    """Two groups with different scales: one scale for every weight gets one of them wrong."""
    groups, _ = _groups(text)
    return len({max(abs(x) for x in w) for w in groups}) > 1


def weight_without_decimals(text: str) -> bool:
    """A weight written without digits on both sides of a point: 127, 0, 5. or .5."""
    weights, _ = _parsed(text)
    return any(not re.fullmatch(r"-?[0-9]+\.[0-9]+", w) for w in weights)


def one_weight(text: str) -> bool:
    return len(_parsed(text)[0]) == 1


def most_weights(text: str) -> bool:
    return len(_parsed(text)[0]) == MAX_WEIGHTS


def group_size_one(text: str) -> bool:
    return _parsed(text)[1] == 1


def consecutive_groups(text: str) -> bool:
    """Two groups or more of two weights or more: taking every g-th weight differs."""
    weights, group = _parsed(text)
    return group >= 2 and len(weights) > group


def short_last_group(text: str) -> bool:
    """A last group shorter than g (also a single one, when g is more than the weights)."""
    weights, group = _parsed(text)
    return len(weights) % group != 0


def negative_outlier(text: str) -> bool:
    """A group whose largest |w| is a negative weight's alone: max(w) is not max(|w|)."""
    groups, _ = _groups(text)
    return any(max(w) < max(abs(x) for x in w) for w in groups)


def rounds_away_from_zero(text: str) -> bool:
    """A w / scale whose fraction is more than .5 from zero: truncating it is one off."""
    for w in _groups(text)[0]:
        m = max(abs(x) for x in w)
        if m and any(2 * (127 * abs(x) % m) > m for x in w):
            return True
    return False


def tie_to_even(text: str) -> bool:
    """A w / scale exactly halfway, whose even neighbour is the lower (2.5, -3.5, 0.5):
    rounding halves up (floor(x + 0.5)), as int(x + 0.5) does for positives, differs."""
    for w in _groups(text)[0]:
        m = max(abs(x) for x in w)
        if m and any(2 * (127 * x % m) == m and (127 * x // m) % 2 == 0 for x in w):
            return True
    return False


def zero_group(text: str) -> bool:
    return any(not any(w) for w in _groups(text)[0])


def tiny_group(text: str) -> bool:
    """A group of weights all below 1e-4 in size, not all 0: its scale is below 1e-6 (and
    prints as 0.00000) but is not 0, so a test of scale > 1e-6 takes it for a zero group."""
    groups, places = _groups(text)
    return any(any(w) and 10**4 * max(abs(x) for x in w) < 10**places for w in groups)


def exponent_sized_scale(text: str) -> bool:
    """A scale above 0 and below 1e-4, which str() and repr() write with an exponent."""
    groups, places = _groups(text)
    return any(0 < 10**4 * max(abs(x) for x in w) < 127 * 10**places for w in groups)


def negative_zero_q(text: str) -> bool:
    """A negative weight whose q is 0: numpy.round gives -0.0, printed -0 or -0.0 as a float."""
    for w in _groups(text)[0]:
        m = max(abs(x) for x in w)
        if m and any(x < 0 and _q(x, m) == 0 for x in w):
            return True
    return False


def unequal_groups(text: str) -> bool:
    """Groups of different sizes: the mean of each group's mean error is then not the mean
    over all weights."""
    weights, group = _parsed(text)
    return len(weights) > group and len(weights) % group != 0


def _printed_mean(groups: list[list[int]], places: int, rounded_scale: bool) -> int:
    """The mean error in units of 1e-5, rounded half to even; with ``rounded_scale``, each
    |w - q * scale| taken with the scale as printed (5 decimals). In integers: an error is
    |127 x - q m| / 127 in units of 10**-places, or, with the scale s in units of 1e-5,
    |x * 10**5 - q s 10**places| in units of 10**-(places + 5)."""
    total = 0
    for w in groups:
        m = max(abs(x) for x in w)
        if not m:
            continue
        if rounded_scale:
            s = round(Fraction(m * 10**5, 127 * 10**places))
            total += sum(abs(x * 10**5 - _q(x, m) * s * 10**places) for x in w)
        else:
            total += sum(abs(127 * x - _q(x, m) * m) for x in w)
    unit = 10**places * (10**5 if rounded_scale else 127)  # what ``total`` counts in
    count = sum(len(w) for w in groups)
    return round(Fraction(total * 10**5, unit * count))


def rounded_scale_matters(text: str) -> bool:
    """The mean error, taken with each scale as printed (5 decimals), prints more than one
    unit of the last place away: the comparison's tolerance does not hide it."""
    groups, places = _groups(text)
    exact = _printed_mean(groups, places, rounded_scale=False)
    return abs(_printed_mean(groups, places, rounded_scale=True) - exact) > 1


def trailing_zero(text: str) -> bool:
    """A printed scale or mean error whose 5th decimal is 0: print(round(x, 5)) drops it."""
    groups, places = _groups(text)
    scales = (round(Fraction(max(abs(x) for x in w), 127 * 10**places) * 10**5) for w in groups)
    return any(s % 10 == 0 for s in scales) or _printed_mean(groups, places, False) % 10 == 0


def huge_weight(text: str) -> bool:
    """A weight near the largest size allowed: |w| >= 1e5."""
    return any(abs(float(w)) >= 1e5 for w in _parsed(text)[0])


def twelve_digit_weight(text: str) -> bool:
    """A weight with 12 significant digits, the most allowed: float32 keeps about 7."""
    return any(_digits(w) == MAX_DIGITS for w in _parsed(text)[0])


def no_final_newline(text: str) -> bool:
    """The last line ends without a newline, which the statement allows."""
    return not text.endswith("\n")


if __name__ == "__main__":
    why = problem(sys.stdin.read())
    if why:
        sys.exit(why)
