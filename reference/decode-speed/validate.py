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


if __name__ == "__main__":
    why = problem(sys.stdin.read())
    if why:
        sys.exit(why)
