"""Accept a ttft input (exit 0) or reject it with the reason on stderr (exit 1).

Every field but NAME is a whole number in ASCII digits within the statement's bounds, so that
every time is an exact fraction of whole numbers, and the largest printed time (the total) is
at most MAX_TOTAL_MS: float64's few roundings then err by less than 1e-6 ms on it, far inside
the tolerance of one unit of the printed place (0.001 ms), however the formula is written.
Without that bound the fields allow totals near 4 * 10^12 ms, where float64 keeps no third
decimal.
"""

import re
import sys
from fractions import Fraction

NAME = re.compile(r"[!-~]+")  # printable ASCII, no spaces
WHOLE = re.compile(r"0|[1-9][0-9]*")  # no sign, no leading zero, no point
BITS = (4, 8, 16, 32)
BOUNDS = {  # field: (smallest, largest)
    "PARAMS": (1, 10**6),  # millions of parameters
    "TFLOPS": (1, 10**5),
    "GBPS": (1, 10**6),
    "PROMPT": (1, 10**6),
    "OUTPUT": (1, 10**6),
}
MAX_SETUPS = 10_000  # the statement's bound: its output then fits output_kb
MAX_TOTAL_MS = 10**9
FIELDS = "NAME PARAMS BITS TFLOPS GBPS PROMPT OUTPUT"


def compute_ms(params: int, tflops: int, tokens: int) -> Fraction:
    """2 * PARAMS * 10^6 * T FLOPs at TFLOPS * 10^12 FLOP/s, in ms."""
    return Fraction(2 * params * tokens, 1000 * tflops)


def memory_ms(params: int, bits: int, gbps: int) -> Fraction:
    """PARAMS * 10^6 * BITS / 8 bytes at GBPS * 10^9 bytes/s, in ms."""
    return Fraction(params * bits, 8 * gbps)


def compute_bound(bits: int, tflops: int, gbps: int, tokens: int) -> bool:
    """A step over `tokens` tokens: arithmetic time >= memory time (a tie is compute-bound)."""
    return 2 * tokens * gbps >= 125 * bits * tflops


def times(setup: list[str]) -> tuple[Fraction, Fraction, Fraction]:
    """TTFT, TPOT and the total, exactly, in ms (TPOT is the decode step's even when OUTPUT = 1)."""
    params, bits, tflops, gbps, prompt, output = map(int, setup[1:])
    memory = memory_ms(params, bits, gbps)
    ttft = max(compute_ms(params, tflops, prompt), memory)
    tpot = max(compute_ms(params, tflops, 1), memory)
    return ttft, tpot, ttft + (output - 1) * tpot


def problem(text: str) -> str | None:
    setups = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip(" "):
            continue
        fields = line.split(" ")
        if len(fields) != 7 or not all(fields):
            return f"line {number}: expected {FIELDS}, separated by single spaces"
        name, params, bits, tflops, gbps, prompt, output = fields
        if not NAME.fullmatch(name):
            return f"line {number}: NAME must be printable ASCII without spaces"
        if bits not in {str(b) for b in BITS}:
            return f"line {number}: BITS must be 4, 8, 16 or 32, not {bits!r}"
        values = dict(zip(BOUNDS, (params, tflops, gbps, prompt, output), strict=True))
        for field, value in values.items():
            low, high = BOUNDS[field]
            if not WHOLE.fullmatch(value):
                return f"line {number}: {field} {value!r} is not a whole number in digits"
            if not low <= int(value) <= high:
                return f"line {number}: {field} {value} is outside {low}..{high}"
        if times(fields)[2] > MAX_TOTAL_MS:
            return f"line {number}: the total is over {MAX_TOTAL_MS} ms"
        setups += 1
    if setups > MAX_SETUPS:
        return f"at most {MAX_SETUPS:,} setups, got {setups:,}"
    return None if setups else "no setups: at least one non-blank line is needed"


# What a case exercises, for the statement's clauses (clauses: in exercises/ttft.yaml): each is
# true of a valid input that exercises its clause.


def _setups(text: str) -> list[list[str]]:
    """Each setup's fields, as written: NAME PARAMS BITS TFLOPS GBPS PROMPT OUTPUT."""
    return [line.split(" ") for line in text.split("\n") if line.strip(" ")]


def _numbers(text: str) -> list[tuple[int, int, int, int, int, int]]:
    """PARAMS, BITS, TFLOPS, GBPS, PROMPT, OUTPUT of each setup."""
    return [tuple(map(int, setup[1:])) for setup in _setups(text)]  # type: ignore[misc]


def blank_line(text: str) -> bool:
    """A blank line, or one of spaces (the final newline ends the last line: no blank one)."""
    return any(not line.strip(" ") for line in text.rstrip("\n").split("\n"))


def int4_weights(text: str) -> bool:
    """BITS 4: half a byte per weight (BITS // 8 is 0, BITS read as bytes is 8 times too many)."""
    return any(bits == 4 for _, bits, *_ in _numbers(text))


def several_prompt_tokens(text: str) -> bool:
    """A prompt of 2 tokens or more: its prefill is one step, not one step per token."""
    return any(p >= 2 for *_, p, _ in _numbers(text))


def prefill_compute_decode_memory(text: str) -> bool:
    """Prefill compute-bound, decode memory-bound: the larger time is a different limit in each
    step, so taking the smaller one, or either limit alone, goes wrong."""
    return any(
        compute_bound(b, f, g, p) and not compute_bound(b, f, g, 1)
        for _, b, f, g, p, _ in _numbers(text)
    )


def ridge_tie(text: str) -> bool:
    """A prefill exactly at the ridge: its two times are equal (a tie is compute-bound)."""
    return any(2 * p * g == 125 * b * f for _, b, f, g, p, _ in _numbers(text))


def prefill_memory_bound(text: str) -> bool:
    """A prompt of several tokens whose prefill is still memory-bound."""
    return any(p > 1 and not compute_bound(b, f, g, p) for _, b, f, g, p, _ in _numbers(text))


def one_token_prompt(text: str) -> bool:
    return any(p == 1 for *_, p, _ in _numbers(text))


def decode_compute_bound(text: str) -> bool:
    """Hardware whose memory outruns its arithmetic: even one token's step is compute-bound."""
    return any(compute_bound(b, f, g, 1) for _, b, f, g, _, _ in _numbers(text))


def several_decode_steps(text: str) -> bool:
    """OUTPUT of 3 or more: the total holds OUTPUT - 1 decode steps, not OUTPUT."""
    return any(o >= 3 for *_, o in _numbers(text))


def one_output_token(text: str) -> bool:
    return any(o == 1 for *_, o in _numbers(text))


def rounding_adds_up(text: str) -> bool:
    """The total rounded from the exact times differs, by more than the tolerance, from the
    rounded TTFT plus OUTPUT - 1 rounded TPOTs."""

    def thousandths(x: Fraction) -> int:
        return round(x * 1000)

    for setup in _setups(text):
        ttft, tpot, total = times(setup)
        summed = thousandths(ttft) + (int(setup[6]) - 1) * thousandths(tpot)
        if abs(summed - thousandths(total)) > 1:
            return True
    return False


def repeated_name(text: str) -> bool:
    """A name on two lines: a line each is printed, not one per name (a dict keeps one)."""
    names = [setup[0] for setup in _setups(text)]
    return len(set(names)) < len(names)


def field_at_a_bound(text: str) -> bool:
    """PARAMS, TFLOPS, GBPS, PROMPT or OUTPUT at the least or the most allowed (1 aside, which
    every bound but none of the largest share)."""
    return any(
        int(value) == high
        for setup in _setups(text)
        for value, (_, high) in zip([setup[1], *setup[3:]], BOUNDS.values(), strict=True)
    )


def total_near_its_bound(text: str) -> bool:
    """A total of 10^8 ms or more, near its bound of 10^9: 13 significant digits printed."""
    return any(times(setup)[2] >= MAX_TOTAL_MS // 10 for setup in _setups(text))


def fewest_or_most_setups(text: str) -> bool:
    return len(_setups(text)) in (1, MAX_SETUPS)


def no_final_newline(text: str) -> bool:
    """The last line ends without a newline, which the statement allows."""
    return not text.endswith("\n")


if __name__ == "__main__":
    why = problem(sys.stdin.read())
    if why:
        sys.exit(why)
