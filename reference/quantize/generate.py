"""Seeded random inputs for quantize: ``generate(seed, size)``, or run: generate.py SEED SIZE."""

import random
import sys

from validate import MAX_WEIGHTS, first_fragile


def _weight(rng: random.Random) -> str:
    """A weight in one of the writings the contract allows: mostly 4 decimals, now and then
    a whole number or one of 12 significant digits near the largest size (issue 37: what the
    generator never writes, fuzzing never tries)."""
    kind = rng.random()
    if kind < 0.02:
        w = rng.uniform(-12.0, 12.0)  # an outlier, as real weight matrices have
    elif kind < 0.04:
        w = 0.0
    elif kind < 0.05:
        return str(rng.randint(-127, 127))  # no decimals at all
    elif kind < 0.06:
        return f"{rng.choice([-1, 1]) * rng.uniform(1e5, 999999):.6f}"  # 12 digits, |w| >= 1e5
    else:
        w = rng.gauss(0.0, 0.4)
    return f"{w:.4f}"


def generate(seed: int, size: int) -> str:
    """A random input that validate.py accepts: a weight on which correct solutions could
    disagree (a decimal tie that one writing of w / scale rounds apart) is drawn again, and
    so is the largest of a group whose scale, or any weight when the mean error, would sit
    on a rounding boundary."""
    rng = random.Random(seed)
    size = min(size, MAX_WEIGHTS)  # the statement's bound
    weights = [_weight(rng) for _ in range(size)]
    group = rng.choice([16, 32, 64, 128]) if size > 256 else rng.randint(1, max(1, size))
    for start in range(0, size, group):  # group by group: each check stays small
        chunk = weights[start : start + group]
        if rng.random() < 0.04:
            chunk = ["0"] * len(chunk)  # a group of zeros: scale 0, every q 0
        elif rng.random() < 0.08:
            # a group of tiny weights: its scale is small, but only zeros make it 0
            chunk = [f"{rng.choice([-1, 1]) * rng.uniform(1e-5, 9e-5):.7f}" for _ in chunk]
        elif len(chunk) >= 2 and rng.random() < 0.15:
            # a deliberate tie: scale 1.0 exactly, every other w / scale a binary .5, which
            # float64 and exact arithmetic both hold exactly; only half-to-even gets them right
            chunk = [rng.choice(["127.0", "-127.0"])] + [
                f"{rng.randint(-20, 20) + 0.5:.1f}" for _ in chunk[1:]
            ]
        while (found := first_fragile(chunk, len(chunk))) is not None:
            chunk[max(found[0], 0)] = _weight(rng)
        weights[start : start + group] = chunk
    while (found := first_fragile(weights, group)) is not None:  # the mean, rarely
        weights[found[0] if found[0] >= 0 else rng.randrange(size)] = _weight(rng)
    return " ".join(weights) + f"\n{group}" + ("" if rng.random() < 0.25 else "\n")


if __name__ == "__main__":
    sys.stdout.write(generate(int(sys.argv[1]), int(sys.argv[2])))
