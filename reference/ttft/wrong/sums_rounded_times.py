"""Known wrong: adds up TTFT and TPOT as printed (rounded to 3 decimals) for the total.

expect: wrong_answer
"""

import sys

for line in sys.stdin:
    if not line.strip():
        continue
    name, *fields = line.split()
    params, bits, tflops, gbps, prompt, output = map(int, fields)
    memory = params * bits / (8 * gbps)
    prefill = 2 * params * prompt / (1000 * tflops)
    decode = 2 * params / (1000 * tflops)
    ttft = round(max(prefill, memory), 3)
    tpot = round(max(decode, memory), 3)
    b1 = "compute-bound" if prefill >= memory else "memory-bound"
    b2 = "compute-bound" if decode >= memory else "memory-bound"
    second = f"TPOT {tpot:.3f} ms ({b2})" if output > 1 else "TPOT none"
    print(f"{name}: TTFT {ttft:.3f} ms ({b1}), {second}, total {ttft + (output - 1) * tpot:.3f} ms")
