"""Reference solution for ttft: prefill and decode latency on the roofline, in milliseconds."""

import sys


def bound(bits: int, tflops: int, gbps: int, tokens: int) -> str:
    # arithmetic time >= memory time, in whole numbers (PARAMS cancels): a tie is compute-bound
    return "compute-bound" if 2 * tokens * gbps >= 125 * bits * tflops else "memory-bound"


for line in sys.stdin:
    if not line.strip():
        continue
    name, *fields = line.split()
    params, bits, tflops, gbps, prompt, output = map(int, fields)
    memory = params * bits / (8 * gbps)  # ms: PARAMS*10^6*BITS/8 bytes at GBPS*10^9 bytes/s
    ttft = max(2 * params * prompt / (1000 * tflops), memory)  # 2 FLOPs per parameter per token
    tpot = max(2 * params / (1000 * tflops), memory)
    total = ttft + (output - 1) * tpot
    prefill = f"TTFT {ttft:.3f} ms ({bound(bits, tflops, gbps, prompt)})"
    decode = f"TPOT {tpot:.3f} ms ({bound(bits, tflops, gbps, 1)})" if output > 1 else "TPOT none"
    print(f"{name}: {prefill}, {decode}, total {total:.3f} ms")
