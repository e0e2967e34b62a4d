"""Seeded random inputs for specdec: ``generate(seed, size)``, or run: generate.py SEED SIZE."""

import random
import sys

VOCAB = [
    "the",
    "a",
    "cat",
    "sat",
    "on",
    "mat",
    "and",
    "then",
    ",",
    ".",
    "naïve",
    "KV",
    "42",
    "3.14",
]


def generate(seed: int, size: int) -> str:
    """``size`` rounds; the draft agrees with the target for a random prefix, then guesses."""
    rng = random.Random(seed)
    lines = []
    for _ in range(size):
        k = rng.randint(1, 6)
        target = [rng.choice(VOCAB) for _ in range(k + 1)]
        draft = [t if rng.random() < 0.7 else rng.choice(VOCAB) for t in target[:k]]
        lines.append(f"draft: {' '.join(draft)} | target: {' '.join(target)}")
        if rng.random() < 0.05:
            lines.append("")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(generate(int(sys.argv[1]), int(sys.argv[2])))
