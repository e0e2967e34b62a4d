"""Accepted: exact arithmetic (fractions.Fraction) in seconds, rounded half to even in ms."""

import sys
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction


def ms(seconds: Fraction) -> str:
    thousandths = Decimal(seconds.numerator * 10**6) / Decimal(seconds.denominator)
    whole = thousandths.quantize(Decimal(1), rounding=ROUND_HALF_EVEN)
    return str((whole / 1000).quantize(Decimal("0.001")))


def step(n: int, bits: int, flops: int, bandwidth: int, tokens: int) -> tuple[Fraction, str]:
    arithmetic = Fraction(2 * n * tokens, flops)
    memory = Fraction(n * bits, 8 * bandwidth)
    if arithmetic >= memory:
        return arithmetic, "compute-bound"
    return memory, "memory-bound"


for line in sys.stdin:
    if not line.strip():
        continue
    name, params, bits, tflops, gbps, prompt, output = line.split()
    hardware = (int(params) * 10**6, int(bits), int(tflops) * 10**12, int(gbps) * 10**9)
    ttft, first = step(*hardware, int(prompt))
    tpot, rest = step(*hardware, 1)
    total = ttft + (int(output) - 1) * tpot
    decode = "TPOT none" if output == "1" else f"TPOT {ms(tpot)} ms ({rest})"
    print(f"{name}: TTFT {ms(ttft)} ms ({first}), {decode}, total {ms(total)} ms")
