"""Accepted: the ridge point first (the prompt length at which prefill turns compute-bound,
as an exact fraction), then each time in float ms from whichever limit binds."""

import sys
from fractions import Fraction


def latency(params, bits, tflops, gbps, prompt, output):
    ridge = Fraction(125 * bits * tflops, 2 * gbps)  # tokens per step where the times tie
    memory_ms = params * bits / 8 / gbps
    token_ms = 2 * params / tflops / 1000

    def step(tokens):
        if tokens >= ridge:
            return tokens * token_ms, "compute-bound"
        return memory_ms, "memory-bound"

    ttft = step(prompt)
    tpot = step(1)
    return ttft, tpot, ttft[0] + (output - 1) * tpot[0]


for text in sys.stdin:
    words = text.split()
    if len(words) != 7:
        continue
    (ttft, b1), (tpot, b2), total = latency(*(int(w) for w in words[1:]))
    second = f"TPOT {tpot:.3f} ms ({b2})" if int(words[6]) != 1 else "TPOT none"
    print(f"{words[0]}: TTFT {ttft:.3f} ms ({b1}), {second}, total {total:.3f} ms")
