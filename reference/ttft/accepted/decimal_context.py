"""Accepted: decimal.Decimal at 40 digits, in microseconds, with round() to three decimals."""

import sys
from decimal import Decimal, getcontext

getcontext().prec = 40
out = []
for line in sys.stdin.read().split("\n"):
    if not line.strip():
        continue
    name, *numbers = line.split()
    params, bits, tflops, gbps, prompt, output = map(Decimal, numbers)
    per_token_us = 2 * params / tflops  # 2 * 10^6 * PARAMS FLOPs at 10^12 * TFLOPS FLOP/s
    memory_us = params * bits * 125 / gbps  # 10^6 * PARAMS * BITS / 8 bytes at 10^9 * GBPS
    prefill_us = per_token_us * prompt
    ttft = max(prefill_us, memory_us)
    tpot = max(per_token_us, memory_us)
    total = ttft + (output - 1) * tpot
    kind = ["memory-bound", "compute-bound"]
    parts = [f"{name}: TTFT {round(ttft / 1000, 3)} ms ({kind[prefill_us >= memory_us]})"]
    if output > 1:
        parts.append(f"TPOT {round(tpot / 1000, 3)} ms ({kind[per_token_us >= memory_us]})")
    else:
        parts.append("TPOT none")
    parts.append(f"total {round(total / 1000, 3)} ms")
    out.append(", ".join(parts))
print("\n".join(out))
