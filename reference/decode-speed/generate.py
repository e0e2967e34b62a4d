"""Random decode-speed setups: python generate.py SEED SIZE (the same seed, the same input)."""

import random
import sys

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


def generate(seed: int, size: int) -> str:
    rng = random.Random(seed)
    lines = []
    for i in range(max(1, size)):
        model, params = rng.choice(MODELS)
        precision = rng.choice([2, 1, 0.5])
        batch = rng.choice([1, 1, 2, 4, 8, 16, 32, 64, 128])
        lines.append(f"{model}-{i} {params} {precision} {rng.choice(GPUS)} {batch}")
    # the last line may end without a newline (an editor's file often does): a third of them
    return "\n".join(lines) + ("" if rng.random() < 0.33 else "\n")


if __name__ == "__main__":
    sys.stdout.write(generate(int(sys.argv[1]), int(sys.argv[2])))
