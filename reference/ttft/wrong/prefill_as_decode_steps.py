"""Known wrong: runs the prefill as PROMPT decode steps of one token each, reading every weight
PROMPT times, instead of one step over the whole prompt.

expect: wrong_answer
"""

import sys

for line in sys.stdin:
    if not line.strip():
        continue
    name, *fields = line.split()
    params, bits, tflops, gbps, prompt, output = map(int, fields)
    memory = params * bits / (8 * gbps)
    arithmetic = 2 * params / (1000 * tflops)
    tpot = max(arithmetic, memory)
    bound = "compute-bound" if arithmetic >= memory else "memory-bound"
    ttft = prompt * tpot
    decode = f"TPOT {tpot:.3f} ms ({bound})" if output > 1 else "TPOT none"
    total = ttft + (output - 1) * tpot
    print(f"{name}: TTFT {ttft:.3f} ms ({bound}), {decode}, total {total:.3f} ms")
