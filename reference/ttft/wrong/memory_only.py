"""Known wrong: ignores the arithmetic: every step takes its memory time and is memory-bound.

expect: wrong_answer
"""

import sys

for line in sys.stdin:
    if not line.strip():
        continue
    name, *fields = line.split()
    params, bits, tflops, gbps, prompt, output = map(int, fields)
    step = params * bits / (8 * gbps)  # ms to read every weight once
    decode = f"TPOT {step:.3f} ms (memory-bound)" if output > 1 else "TPOT none"
    print(f"{name}: TTFT {step:.3f} ms (memory-bound), {decode}, total {output * step:.3f} ms")
