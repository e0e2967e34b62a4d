"""Accepted: whole numbers only: each time as a fraction num/den of milliseconds, rounded half
up to thousandths with integer division, labels by comparing cross products."""

import sys


def thousandths(num: int, den: int) -> str:
    q = (2000 * num + den) // (2 * den)  # round(1000 * num / den), halves up
    return f"{q // 1000}.{q % 1000:03d}"


def larger(a: tuple[int, int], b: tuple[int, int]) -> tuple[tuple[int, int], bool]:
    """The larger of two fractions, and whether the first one is (a tie: the first)."""
    first = a[0] * b[1] >= b[0] * a[1]
    return (a if first else b), first


def main() -> None:
    names = {True: "compute-bound", False: "memory-bound"}
    for line in sys.stdin.read().splitlines():
        fields = line.split()
        if not fields:
            continue
        params, bits, tflops, gbps, prompt, output = (int(x) for x in fields[1:])
        memory = (params * bits, 8 * gbps)  # ms
        ttft, prefill_compute = larger((2 * params * prompt, 1000 * tflops), memory)
        tpot, decode_compute = larger((2 * params, 1000 * tflops), memory)
        total = (ttft[0] * tpot[1] + (output - 1) * tpot[0] * ttft[1], ttft[1] * tpot[1])
        decode = (
            f"TPOT {thousandths(*tpot)} ms ({names[decode_compute]})" if output > 1 else "TPOT none"
        )
        sys.stdout.write(
            f"{fields[0]}: TTFT {thousandths(*ttft)} ms ({names[prefill_compute]}), "
            f"{decode}, total {thousandths(*total)} ms\n"
        )


main()
