"""A random input: python generate.py SEED SIZE (the same seed gives the same input)."""

import random
import sys


def line(rng: random.Random) -> str:
    """Blank, or a few words of a's or b's."""
    if rng.random() < 0.3:
        return ""
    return " ".join(rng.choice("ab") * rng.randint(1, 3) for _ in range(rng.randint(1, 3)))


seed, size = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
lines = [line(rng) for _ in range(max(1, size))]
lines[0] = lines[0] or "a"  # one word at least
sys.stdout.write("\n".join(lines) + ("\n" if rng.random() < 0.5 else ""))
