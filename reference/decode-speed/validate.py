"""Accept a decode-speed input (exit 0) or reject it with the reason on stderr (exit 1).

Numbers are ASCII decimals within bounds the statement gives, so that no valid input divides by
zero (PARAMS x BYTES underflowing), overflows to inf, or holds more digits than float64 keeps.
And the answer T itself is at most MAX_RATE: float64's few roundings then err by less than
1e-3 on it (at 10^18, which the fields alone allow, by up to ~500, so float64 and exact
arithmetic printed different T's to one decimal), well inside the tolerance of one unit of
the printed place.
"""

import re
import sys
from fractions import Fraction

POSITIVE = re.compile(r"([0-9]+(\.[0-9]*)?|\.[0-9]+)")  # ASCII digits only
NAME = re.compile(r"[!-~]+")  # printable ASCII, no spaces
BOUNDS = {  # field: (smallest, largest)
    "PARAMS": (1e-3, 1e5),  # billions of parameters
    "BYTES_PER_PARAM": (1e-3, 64.0),
    "BANDWIDTH_GBPS": (1e-3, 1e6),
}
MAX_BATCH = 10**6
MAX_DIGITS = 12
MAX_SETUPS = 10_000  # the statement's bound: its output then fits output_kb
MAX_RATE = 10**12  # tokens/s: float64 holds it to ~1e-4, every writing prints it alike


def rate(params: str, size: str, bandwidth: str, batch: str) -> Fraction:
    """T exactly."""
    return Fraction(bandwidth) / (Fraction(params) * Fraction(size)) * int(batch)


def _digits(text: str) -> int:
    return len(text.replace(".", "").lstrip("0"))


def problem(text: str) -> str | None:
    setups = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip(" "):
            continue
        fields = line.split(" ")
        if len(fields) != 5 or not all(fields):
            return (
                f"line {number}: expected NAME PARAMS BYTES_PER_PARAM BANDWIDTH_GBPS BATCH, "
                "separated by single spaces"
            )
        name, *numbers, batch = fields
        if not NAME.fullmatch(name) or "|" in name:
            return f"line {number}: NAME must be printable ASCII without spaces"
        for (field, (low, high)), value in zip(BOUNDS.items(), numbers, strict=True):
            if not POSITIVE.fullmatch(value) or _digits(value) > MAX_DIGITS:
                return f"line {number}: {field} {value!r} is not a decimal number"
            if not low <= float(value) <= high:
                return f"line {number}: {field} {value} is outside {low:g}..{high:g}"
        if not re.fullmatch(r"[1-9][0-9]*", batch) or int(batch) > MAX_BATCH:
            return f"line {number}: BATCH must be a whole number from 1 to {MAX_BATCH}"
        if rate(*numbers, batch) > MAX_RATE:
            return f"line {number}: T is over {MAX_RATE:.0e} tokens/s"
        setups += 1
    if setups > MAX_SETUPS:
        return f"at most {MAX_SETUPS:,} setups, got {setups:,}"
    return None if setups else "no setups: at least one non-blank line is needed"


# What a case exercises, for the statement's clauses (clauses: in exercises/decode-speed.yaml):
# each is true of a valid input that exercises its clause.


def _setups(text: str) -> list[list[str]]:
    """Each setup's fields, as written: NAME PARAMS BYTES_PER_PARAM BANDWIDTH_GBPS BATCH."""
    return [line.split(" ") for line in text.split("\n") if line.strip(" ")]


def batch_above_one(text: str) -> bool:
    """A batch of several sequences: one pass over the weights yields a token for each."""
    return any(int(batch) > 1 for *_, batch in _setups(text))


def blank_line(text: str) -> bool:
    """A blank line, or one of spaces (the final newline ends the last line: no blank one)."""
    return any(not line.strip(" ") for line in text.rstrip("\n").split("\n"))


def _with_a_point(field: int, text: str) -> bool:
    return any("." in setup[field] for setup in _setups(text))


def fractional_params(text: str) -> bool:
    """PARAMS written with a point (1.5, 7.0): int() of it fails, int(float()) truncates."""
    return _with_a_point(1, text)


def fractional_bytes(text: str) -> bool:
    """BYTES_PER_PARAM written with a point (0.5 for int4)."""
    return _with_a_point(2, text)


def fractional_bandwidth(text: str) -> bool:
    """BANDWIDTH_GBPS written with a point (900.5)."""
    return _with_a_point(3, text)


def whole_batch_of_one(text: str) -> bool:
    """BATCH 1, the fewest sequences: T is the weights read per second, once."""
    return any(batch == "1" for *_, batch in _setups(text))


def repeated_name(text: str) -> bool:
    """A name on two lines: a line each is printed, not one per name (a dict keeps one)."""
    names = [setup[0] for setup in _setups(text)]
    return len(set(names)) < len(names)


def whole_rate(text: str) -> bool:
    """A T that is a whole number, printed with its .0 (100.0, not 100)."""
    return any(rate(*setup[1:]).denominator == 1 for setup in _setups(text))


def field_at_a_bound(text: str) -> bool:
    """PARAMS, BYTES_PER_PARAM or BANDWIDTH_GBPS at the least or the most allowed."""
    return any(
        float(value) in bounds
        for setup in _setups(text)
        for value, bounds in zip(setup[1:4], BOUNDS.values(), strict=True)
    )


def twelve_digit_field(text: str) -> bool:
    """A field with 12 significant digits, the most allowed: float32 keeps about 7."""
    return any(_digits(value) == MAX_DIGITS for setup in _setups(text) for value in setup[1:4])


def largest_batch(text: str) -> bool:
    return any(int(batch) == MAX_BATCH for *_, batch in _setups(text))


def rate_near_its_bound(text: str) -> bool:
    """A T of 10^11 tokens/s or more, near its bound of 10^12: printed with 12 or 13 digits
    before the point, where float32 (or a rounding to 7 significant digits) is far off."""
    return any(rate(*setup[1:]) >= MAX_RATE // 10 for setup in _setups(text))


def fewest_or_most_setups(text: str) -> bool:
    return len(_setups(text)) in (1, MAX_SETUPS)


def no_final_newline(text: str) -> bool:
    """The last line ends without a newline, which the statement allows."""
    return not text.endswith("\n")


if __name__ == "__main__":
    why = problem(sys.stdin.read())
    if why:
        sys.exit(why)
