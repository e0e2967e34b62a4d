"""Random ttft setups: python generate.py SEED SIZE (the same seed, the same input).

Most lines are real models on real accelerators with prompts and outputs of chat sizes, some at
the ridge (the prompt length where prefill turns compute-bound) or one token off it; some are
drawn anywhere within the statement's bounds (log-uniformly, the total up to its bound); and
some inputs hold blank lines or a name twice, as the statement allows.
"""

import math
import random
import sys

from validate import BITS, BOUNDS, MAX_SETUPS, MAX_TOTAL_MS, times

MODELS = [  # name, millions of parameters
    ("gpt2", 124),
    ("tinyllama", 1100),
    ("phi-2", 2700),
    ("llama-7b", 7000),
    ("llama3-8b", 8030),
    ("llama-13b", 13000),
    ("mixtral", 46700),
    ("llama-70b", 70000),
    ("llama-405b", 405000),
]
CHIPS = [  # dense 16-bit TFLOP/s, GB/s (rounded data-sheet figures)
    (65, 320),
    (121, 300),
    (165, 1008),
    (312, 2039),
    (989, 3350),
    (989, 4800),
    (1307, 5300),
    (1, 400),  # a hypothetical chip whose arithmetic lags its memory: decode compute-bound in int4
]


def _log_int(rng: random.Random, low: int, high: int) -> int:
    return max(low, min(high, round(10 ** rng.uniform(math.log10(low), math.log10(high)))))


def _valid(fields: list[str]) -> bool:
    return times(fields)[2] <= MAX_TOTAL_MS


def _anywhere(rng: random.Random, name: str) -> str:
    """A setup drawn within the bounds, its total at most MAX_TOTAL_MS."""
    while True:
        params, tflops, gbps, prompt, output = (
            _log_int(rng, low, high) for low, high in BOUNDS.values()
        )
        if rng.random() < 0.1:
            gbps = BOUNDS["GBPS"][1]  # a field at its largest, which the draw rarely hits
        bits = rng.choice(BITS)
        fields = [name, *map(str, (params, bits, tflops, gbps, prompt, output))]
        if _valid(fields):
            return " ".join(fields)


def _real(rng: random.Random, name: str, params: int) -> str:
    tflops, gbps = rng.choice(CHIPS)
    bits = rng.choice([16, 16, 8, 4, 32])
    ridge = 125 * bits * tflops / (2 * gbps)  # the prompt length of the tie
    roll = rng.random()
    if roll < 0.25:  # at the ridge, or a token off it
        prompt = max(1, math.ceil(ridge) + rng.choice([-1, 0, 1]))
    elif roll < 0.35:
        prompt = 1
    else:
        prompt = rng.choice([8, 64, 200, 512, 1000, 2048, 4096, 8192, 32000, 128000])
    output = rng.choice([1, 1, 2, 16, 128, 256, 500, 1000, 4096])
    fields = [name, *map(str, (params, bits, tflops, gbps, prompt, output))]
    return " ".join(fields) if _valid(fields) else _anywhere(rng, name)


def generate(seed: int, size: int) -> str:
    rng = random.Random(seed)
    lines = []
    names: list[str] = []
    for i in range(min(max(1, size), MAX_SETUPS)):  # SIZE setups, within the statement's bound
        model, params = rng.choice(MODELS)
        name = rng.choice(names) if names and rng.random() < 0.05 else f"{model}-{i}"
        names.append(name)
        lines.append(_anywhere(rng, name) if rng.random() < 0.2 else _real(rng, name, params))
        if rng.random() < 0.03:
            lines.append(rng.choice(["", " "]))  # blank lines are allowed, spaces too
    # the last line may end without a newline (an editor's file often does): a third of them
    return "\n".join(lines) + ("" if rng.random() < 0.33 else "\n")


if __name__ == "__main__":
    sys.stdout.write(generate(int(sys.argv[1]), int(sys.argv[2])))
