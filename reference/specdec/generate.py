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
    "12:30",  # a token may hold a colon
    "KV:cache",
]


def _guess(rng: random.Random, target: str) -> str:
    """The draft's token: mostly right; sometimes the same word capitalised (still a miss:
    tokens are compared exactly), else any."""
    roll = rng.random()
    if roll < 0.7:
        return target
    if roll < 0.8 and target.capitalize() != target:
        return target.capitalize()
    return rng.choice(VOCAB)


def generate(seed: int, size: int) -> str:
    """``size`` rounds; the draft agrees with the target for a random prefix, then guesses."""
    rng = random.Random(seed)
    lines = []
    for _ in range(size):
        k = rng.randint(1, 6)
        target = [rng.choice(VOCAB) for _ in range(k + 1)]
        draft = [_guess(rng, t) for t in target[:k]]
        lines.append(f"draft: {' '.join(draft)} | target: {' '.join(target)}")
        if rng.random() < 0.05:
            lines.append("")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(generate(int(sys.argv[1]), int(sys.argv[2])))
