"""Random decode-speed setups: python generate.py SEED SIZE (the same seed, the same input).

Most lines are real models on real GPUs; some are drawn anywhere within the statement's bounds
(log-uniformly, up to 12 significant digits, T up to its bound), and some inputs hold blank
lines or a name twice, as the statement allows.
"""

import math
import random
import sys
from decimal import Decimal

from validate import BOUNDS, MAX_BATCH, MAX_RATE, MAX_SETUPS, rate

MODELS = [
    ("tiny", 0.5),
    ("phi", 2.7),
    ("llama-7b", 7),
    ("mistral", 7.3),
    ("llama-13b", 13),
    ("mixtral", 46.7),
    ("llama-70b", 70),
    ("big", 405),
]
GPUS = [320, 448, 900, 1008, 2039, 3350, 4800]


def _decimal(rng: random.Random, low: float, high: float) -> str:
    """A plain decimal (never e-notation) in [low, high], log-uniform, 1 to 12 digits."""
    while True:
        x = Decimal(10 ** rng.uniform(math.log10(low), math.log10(high)))
        text = format(round(x, rng.randint(1, 12) - 1 - x.adjusted()).normalize(), "f")
        if low <= float(text) <= high:
            return text


def _anywhere(rng: random.Random, name: str) -> str:
    """A setup drawn within the bounds, T at most MAX_RATE included."""
    while True:
        numbers = [_decimal(rng, low, high) for low, high in BOUNDS.values()]
        batch = str(round(10 ** rng.uniform(0, math.log10(MAX_BATCH))))
        if rng.random() < 0.1:
            batch = str(MAX_BATCH)  # the largest allowed, which the draw above rarely hits
        if rng.random() < 0.1:
            numbers[0] = "100000"  # PARAMS at its largest: T only gets smaller
        if rate(*numbers, batch) <= MAX_RATE:
            return " ".join([name, *numbers, batch])


def generate(seed: int, size: int) -> str:
    rng = random.Random(seed)
    lines = []
    names: list[str] = []
    for i in range(min(max(1, size), MAX_SETUPS)):  # SIZE setups, within the statement's bound
        model, params = rng.choice(MODELS)
        name = rng.choice(names) if names and rng.random() < 0.05 else f"{model}-{i}"
        names.append(name)
        if rng.random() < 0.2:
            lines.append(_anywhere(rng, name))
        else:
            precision = rng.choice([2, 1, 0.5])
            batch = rng.choice([1, 1, 2, 4, 8, 16, 32, 64, 128])
            lines.append(f"{name} {params} {precision} {rng.choice(GPUS)} {batch}")
        if rng.random() < 0.03:
            lines.append(rng.choice(["", " "]))  # blank lines are allowed, spaces too
    # the last line may end without a newline (an editor's file often does): a third of them
    return "\n".join(lines) + ("" if rng.random() < 0.33 else "\n")


if __name__ == "__main__":
    sys.stdout.write(generate(int(sys.argv[1]), int(sys.argv[2])))
