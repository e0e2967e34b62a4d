"""Seeded random inputs for specdec: ``generate(seed, size)``, or run: generate.py SEED SIZE."""

import random
import sys

from validate import MAX_ROUNDS, fragile_ratio, tokens

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
    "draft:",  # a token may be spelled like a label
    "target:",
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


def _round(rng: random.Random) -> tuple[list[str], list[str]]:
    k = rng.randint(1, 6)
    target = [rng.choice(VOCAB) for _ in range(k + 1)]
    return [_guess(rng, t) for t in target[:k]], target


def generate(seed: int, size: int) -> str:
    """``size`` rounds; the draft agrees with the target for a random prefix, then guesses.
    The last round is drawn again while the ratio is a tie float64 breaks (validate.py
    refuses those: correct solutions would print it differently)."""
    rng = random.Random(seed)
    rounds, blank = [], []
    for _ in range(min(max(1, size), MAX_ROUNDS)):  # within the statement's bound
        rounds.append(_round(rng))
        blank.append(rng.random() < 0.05)
    total = sum(tokens(d, t) for d, t in rounds)
    while fragile_ratio(total, len(rounds)):
        total -= tokens(*rounds[-1])
        rounds[-1] = _round(rng)
        total += tokens(*rounds[-1])
    lines = []
    for (draft, target), then_blank in zip(rounds, blank, strict=True):
        lines.append(f"draft: {' '.join(draft)} | target: {' '.join(target)}")
        if then_blank:
            lines.append("")
    return "\n".join(lines) + ("" if rng.random() < 0.25 else "\n")


if __name__ == "__main__":
    sys.stdout.write(generate(int(sys.argv[1]), int(sys.argv[2])))
