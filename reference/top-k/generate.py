"""Seeded random inputs for top-k: ``generate(seed, size)``, or run: generate.py SEED SIZE.

SIZE tokens with logits drawn from few values, so that many are equal, each written in one of
its decimal forms (1.5, 1.50, 1.500); about one in four has 3 or 4 decimals of its own (1.5037),
as the contract allows: a program that keys on hundredths must meet it. k is chosen where the
k-th place is tied when it can be.
"""

import random
import string
import sys

from validate import MAX_TOKENS

LETTERS = string.ascii_lowercase
OTHER = string.ascii_uppercase + string.digits + "_"


def _token(rng: random.Random) -> str:
    word = "".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 7)))
    if rng.random() < 0.2:
        word += "".join(rng.choice(OTHER) for _ in range(rng.randint(1, 3)))
    return word.capitalize() if rng.random() < 0.1 else word


def _written(units: int, rng: random.Random) -> str:
    """``units / 10**4`` as a decimal with 0 to 4 places, trailing zeros chosen at random."""
    sign = "-" if units < 0 else ""
    whole, part = divmod(abs(units), 10**4)
    digits = f"{part:04d}".rstrip("0")
    places = rng.randint(len(digits), 4)
    if places == 0:
        return f"{sign}{whole}"
    return f"{sign}{whole}.{digits.ljust(places, '0')}"


def generate(seed: int, size: int) -> str:
    """An input validate.py accepts: ``size`` unique tokens (at least 1)."""
    rng = random.Random(seed)
    size = min(max(size, 1), MAX_TOKENS)  # the statement's bound
    spread = min(max(size // 3, 2), 3999)  # about three tokens per value; 25 * 3999 < 10**5
    tokens: dict[str, int] = {}
    while len(tokens) < size:
        token = _token(rng)
        if token not in tokens:
            hundredths = rng.randint(-spread, spread) * rng.choice([1, 5, 25])
            if rng.random() < 0.05:  # now and then a whole part of 3 digits, as allowed
                hundredths = rng.choice([-1, 1]) * rng.randint(10**4, 10**5 - 1)
            finer = rng.randint(-99, 99) if rng.random() < 0.25 else 0  # |logit| stays < 1000
            tokens[token] = hundredths * 100 + finer
    ranked = sorted(tokens.values(), reverse=True)
    tied = [k for k in range(1, size) if ranked[k - 1] == ranked[k]]
    k = rng.choice(tied) if tied else rng.randint(1, size)
    lines = [str(k)] + [f"{t} {_written(h, rng)}" for t, h in tokens.items()]
    return "\n".join(lines) + ("" if rng.random() < 0.25 else "\n")


if __name__ == "__main__":
    sys.stdout.write(generate(int(sys.argv[1]), int(sys.argv[2])))
