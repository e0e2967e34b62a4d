"""Seeded random inputs for batching: ``generate(seed, size)``, or run: generate.py SEED SIZE.

SIZE is the number of requests. Arrivals come in bursts (many at the same time: ties broken
by id), with gaps long enough to leave the engine idle now and then; ids are distinct, of
different lengths (9 before 10), and the lines are shuffled, so the input order is neither the
arrival order nor the id order. The mode is drawn at random.
"""

import random
import sys

from validate import (
    MAX_ARRIVAL,
    MAX_BASE,
    MAX_BATCH,
    MAX_ID,
    MAX_OUTPUT,
    MAX_PER_SEQ,
    MAX_PER_TOKEN,
    MAX_PROMPT,
    MAX_REQUESTS,
)


def generate(seed: int, size: int) -> str:
    rng = random.Random(seed)
    count = min(max(1, size), MAX_REQUESTS)  # within the statement's bound
    mode = rng.choice(["static", "continuous"])
    base = rng.choice([1, 5, 10, 20, rng.randint(1, MAX_BASE)])
    per_token = rng.choice([0, 1, 1, 2, rng.randint(0, MAX_PER_TOKEN)])
    per_seq = rng.choice([0, 1, 2, 5, rng.randint(0, MAX_PER_SEQ)])
    batch = min(MAX_BATCH, rng.choice([1, 2, 3, 4, 8, max(1, count // 3), rng.randint(1, count)]))
    longest_prompt = rng.choice([1, 8, 50, 500, MAX_PROMPT])
    longest_output = rng.choice([1, 3, 10, 30, MAX_OUTPUT])
    spread = max(1, base + per_token * longest_prompt // 4)  # about an iteration's length
    ids = rng.sample(range(1, min(MAX_ID, max(30, 3 * count)) + 1), count)
    lines, now = [], rng.choice([0, 0, rng.randint(0, 100)])
    for rid in ids:
        roll = rng.random()
        if roll < 0.3:
            pass  # the same time as the last one: a tie
        elif roll < 0.9:
            now += rng.randint(0, spread)
        elif roll < 0.98:
            now += rng.randint(spread, 50 * spread)  # a gap: the engine may go idle
        else:
            now += rng.randint(0, MAX_ARRIVAL // 10)
        now = min(now, MAX_ARRIVAL)
        prompt = rng.randint(1, longest_prompt)
        output = rng.randint(1, longest_output) if rng.random() < 0.9 else 1
        lines.append(f"{rid} {now} {prompt} {output}")
    rng.shuffle(lines)
    end = "" if rng.random() < 0.25 else "\n"  # the contract allows either
    return f"{mode} {base} {per_token} {per_seq} {batch}\n" + "\n".join(lines) + end


if __name__ == "__main__":
    sys.stdout.write(generate(int(sys.argv[1]), int(sys.argv[2])))
