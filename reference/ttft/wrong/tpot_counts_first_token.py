"""Known wrong: adds a decode step for every output token, the first one too.

total = TTFT + OUTPUT * TPOT, one TPOT too many: the first token comes from the prefill.

expect: wrong_answer
"""

import sys


def step(params: int, bits: int, tflops: int, gbps: int, tokens: int) -> tuple[float, str]:
    arithmetic = 2 * params * tokens / (1000 * tflops)
    memory = params * bits / (8 * gbps)
    bound = "compute-bound" if arithmetic >= memory else "memory-bound"
    return max(arithmetic, memory), bound


for line in sys.stdin:
    if not line.strip():
        continue
    name, *fields = line.split()
    params, bits, tflops, gbps, prompt, output = map(int, fields)
    ttft, b1 = step(params, bits, tflops, gbps, prompt)
    tpot, b2 = step(params, bits, tflops, gbps, 1)
    total = ttft + output * tpot
    decode = f"TPOT {tpot:.3f} ms ({b2})" if output > 1 else "TPOT none"
    print(f"{name}: TTFT {ttft:.3f} ms ({b1}), {decode}, total {total:.3f} ms")
