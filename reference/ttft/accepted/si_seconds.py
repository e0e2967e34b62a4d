"""Accepted: floats in SI units (seconds, FLOP/s, bytes/s), all lines read first, the bound
decided by the ridge in whole numbers, the times converted to ms at the end."""

import sys

rows = [line.split() for line in sys.stdin if line.strip()]
report = []


def step(tokens: int, n: float, flops_per_s: float, weight_s: float, ridge: tuple[int, int]):
    arithmetic_s = 2 * n * tokens / flops_per_s
    gbps, bits_tflops = ridge
    compute = 2 * tokens * gbps >= 125 * bits_tflops
    return max(arithmetic_s, weight_s), "compute-bound" if compute else "memory-bound"


for name, params, bits, tflops, gbps, prompt, output in rows:
    n = int(params) * 1e6
    flops_per_s = int(tflops) * 1e12
    bytes_per_s = int(gbps) * 1e9
    weight_s = n * int(bits) / 8 / bytes_per_s
    ridge = (int(gbps), int(bits) * int(tflops))
    ttft, b1 = step(int(prompt), n, flops_per_s, weight_s, ridge)
    tpot, b2 = step(1, n, flops_per_s, weight_s, ridge)
    total = ttft + (int(output) - 1) * tpot
    mid = "TPOT %.3f ms (%s)" % (tpot * 1e3, b2) if int(output) > 1 else "TPOT none"
    line = "%s: TTFT %.3f ms (%s), %s, total %.3f ms" % (name, ttft * 1e3, b1, mid, total * 1e3)
    report.append(line)
sys.stdout.write("".join(r + "\n" for r in report))
