"""Seeded random inputs for kv-pages: ``generate(seed, size)``, or run: generate.py SEED SIZE.

SIZE is the number of events. The pool is kept small next to the prompts, so that requests
wait, sequences are preempted (in cascades too) and re-admitted; running sequences are forked
and finished, and FORK and FINISH only ever name a running sequence (the contract).
"""

import random
import sys

from validate import MAX_BLOCK, MAX_BLOCKS, MAX_EVENTS, MAX_SEQUENCES, Manager


def generate(seed: int, size: int) -> str:
    rng = random.Random(seed)
    events = min(max(1, size), MAX_EVENTS)  # within the statement's bound
    block = rng.choice([1, 1, 2, 3, 4, 4, 8, 16, rng.randint(1, MAX_BLOCK)])
    count = rng.choice([1, 2, 3, 5, 8, 12, 20, rng.randint(1, 60), rng.randint(1, MAX_BLOCKS)])
    manager = Manager(block, count)
    lines = [f"{block} {count}"]
    serial = 0
    step_weight = rng.choice([0.3, 0.5, 0.7])
    while len(lines) <= events:
        roll = rng.random()
        room = len(manager.names) < MAX_SEQUENCES
        if roll < step_weight or (not room and not manager.running):
            manager.step()
            lines.append("STEP")
        elif roll < step_weight + 0.1 and manager.running:
            name = rng.choice(manager.running)
            manager.finish(name)
            lines.append(f"FINISH {name}")
        elif roll < step_weight + 0.2 and manager.running and room:
            serial += 1
            child = f"{rng.choice(['F', 'c', 'k_'])}{serial}"
            parent = rng.choice(manager.running)
            manager.fork(parent, child)
            lines.append(f"FORK {parent} {child}")
        elif room:
            serial += 1
            name = f"{rng.choice(['A', 'r', 'q_', ''])}{serial}"
            most = block * count
            prompt = rng.choice(
                [
                    rng.randint(1, min(most, 3 * block)),
                    block * rng.randint(1, max(1, min(count, 4))),  # a multiple of B
                    rng.randint(1, most),
                    rng.randint(1, max(1, most // 3)),
                ]
            )
            manager.add(name, min(prompt, most))
            lines.append(f"ADD {name} {min(prompt, most)}")
        else:
            manager.step()
            lines.append("STEP")
    return "\n".join(lines[: events + 1]) + ("" if rng.random() < 0.25 else "\n")


if __name__ == "__main__":
    sys.stdout.write(generate(int(sys.argv[1]), int(sys.argv[2])))
