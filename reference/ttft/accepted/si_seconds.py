"""Accepted: floats in SI units (seconds, FLOP/s, bytes/s), all lines read first, the bound
decided by the ridge in whole numbers, the times converted to ms at the end."""

import sys

rows = [line.split() for line in sys.stdin if line.strip()]
report = []
for name, params, bits, tflops, gbps, prompt, output in rows:
    n = int(params) * 1e6
    flops_per_s = int(tflops) * 1e12
    bytes_per_s = int(gbps) * 1e9
    weight_s = n * int(bits) / 8 / bytes_per_s

    def step(tokens: int) -> tuple[float, str]:
        arithmetic_s = 2 * n * tokens / flops_per_s
        compute = 2 * tokens * int(gbps) >= 125 * int(bits) * int(tflops)
        return max(arithmetic_s, weight_s), "compute-bound" if compute else "memory-bound"

    ttft, b1 = step(int(prompt))
    tpot, b2 = step(1)
    total = ttft + (int(output) - 1) * tpot
    mid = "TPOT %.3f ms (%s)" % (tpot * 1e3, b2) if int(output) > 1 else "TPOT none"
    report.append("%s: TTFT %.3f ms (%s), %s, total %.3f ms" % (name, ttft * 1e3, b1, mid, total * 1e3))
sys.stdout.write("".join(r + "\n" for r in report))
