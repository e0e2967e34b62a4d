"""Seeded random inputs for quantize: ``generate(seed, size)``, or run: generate.py SEED SIZE."""

import random
import sys


def generate(seed: int, size: int) -> str:
    rng = random.Random(seed)
    weights = []
    for _ in range(size):
        kind = rng.random()
        if kind < 0.02:
            w = rng.uniform(-12.0, 12.0)  # an outlier, as real weight matrices have
        elif kind < 0.04:
            w = 0.0
        else:
            w = rng.gauss(0.0, 0.4)
        weights.append(f"{w:.4f}")
    group = rng.choice([16, 32, 64, 128]) if size > 256 else rng.randint(1, max(1, size))
    return " ".join(weights) + f"\n{group}\n"


if __name__ == "__main__":
    sys.stdout.write(generate(int(sys.argv[1]), int(sys.argv[2])))
