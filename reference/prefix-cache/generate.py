"""Seeded random inputs for prefix-cache: ``generate(seed, size)``, or run: generate.py SEED SIZE.

SIZE is the number of events. Prompts are drawn from a few shared documents (a prefix of one,
then a tail of its own), repeated whole, or shifted behind another prefix, so that hits, full
hits, evictions and look-alike blocks at other positions all happen. Before an ADD that would
not fit, running requests are finished (the contract promises enough free blocks).
"""

import random
import sys

from validate import MAX_BLOCK, MAX_EVENTS, MAX_PROMPT, MAX_TOKEN, Cache


def _prompt(
    rng: random.Random, docs: list[list[str]], seen: list[list[str]], longest: int, token
) -> list[str]:
    roll = rng.random()
    if roll < 0.2 and seen:
        prompt = list(rng.choice(seen))  # the very same prompt again
    elif roll < 0.65:
        doc = rng.choice(docs)
        prompt = doc[: rng.randint(1, len(doc))] + [token() for _ in range(rng.randint(0, 6))]
    elif roll < 0.8:
        # a document's tokens behind another prefix: the same blocks at other positions
        prompt = [token() for _ in range(rng.randint(1, 4))] + rng.choice(docs)
    elif roll < 0.9 and seen:
        prompt = rng.choice(seen)[: rng.randint(1, 8)]  # a short one: maybe under one block
    else:
        prompt = [token() for _ in range(rng.randint(1, longest))]
    return prompt[:longest] or [token()]


def generate(seed: int, size: int) -> str:
    rng = random.Random(seed)
    events = min(max(1, size), MAX_EVENTS)  # within the statement's bound
    block = rng.choice([1, 2, 3, 4, 4, 4, 8, 16, rng.randint(1, MAX_BLOCK)])
    longest = min(MAX_PROMPT, max(2, 3 * events), rng.choice([block * 3, 40, MAX_PROMPT]))
    vocabulary = rng.choice([2, 3, 5, 20, 1000])

    def token() -> str:
        if rng.random() < 0.02:
            return str(rng.randint(0, MAX_TOKEN))
        return str(rng.randrange(vocabulary))

    docs = [[token() for _ in range(rng.randint(1, longest))] for _ in range(rng.randint(1, 4))]
    most = -(-longest // block)  # the blocks of the longest prompt: N at least that
    count = rng.choice([most, most + 1, 2 * most, 4 * most, rng.randint(most, 20 * most)])
    cache = Cache(block, count)
    lines, seen, order = [f"{block} {count}"], [], []
    serial = 0
    while len(lines) <= events:
        if order and rng.random() < 0.35:
            name = order.pop(0 if rng.random() < 0.5 else rng.randrange(len(order)))
            cache.finish(name)
            lines.append(f"FINISH {name}")
            continue
        prompt = _prompt(rng, docs, seen, longest, token)
        _, needed = cache.lookup(prompt)
        while needed > cache.available(prompt):  # finish requests until it fits
            name = order.pop(rng.randrange(len(order)))
            cache.finish(name)
            lines.append(f"FINISH {name}")
            _, needed = cache.lookup(prompt)
        serial += 1
        name = rng.choice(["R", "req", "r_", ""]) + str(serial)
        cache.add(name, prompt)
        order.append(name)
        seen.append(prompt)
        lines.append(f"ADD {name} {' '.join(prompt)}")
    return "\n".join(lines[: events + 1]) + ("" if rng.random() < 0.25 else "\n")


if __name__ == "__main__":
    sys.stdout.write(generate(int(sys.argv[1]), int(sys.argv[2])))
