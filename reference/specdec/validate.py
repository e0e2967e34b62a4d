"""Accept a specdec input (exit 0) or reject it with the reason on stderr (exit 1).

Tokens are separated by single ASCII spaces. An input whose ratio T / R is a decimal tie at two
places (3186 / 1200 = 2.655) is refused: float64 prints 2.65, exact arithmetic 2.66, and both
solutions are correct.
"""

import re
import sys
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

MAX_ROUNDS = 10_000  # the statement's bound
ROUND = re.compile(r"draft:((?: [^\s|]+)+) \| target:((?: [^\s|]+)+)")


def fragile_ratio(total: int, rounds: int) -> bool:
    """Whether float64 and exact arithmetic print total / rounds differently at 2 decimals."""
    exact = Fraction(total, rounds) * 100
    hundredths = Decimal(exact.numerator) / Decimal(exact.denominator)
    shown = hundredths.quantize(Decimal(1), rounding=ROUND_HALF_EVEN) / 100
    return f"{shown:.2f}" != f"{total / rounds:.2f}"


def tokens(draft: list[str], target: list[str]) -> int:
    """The tokens a round yields: the draft's accepted prefix, then one from the target."""
    accepted = 0
    while accepted < len(draft) and draft[accepted] == target[accepted]:
        accepted += 1
    return accepted + 1


def problem(text: str) -> str | None:
    rounds = total = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        match = ROUND.fullmatch(line)
        if match is None:
            return f"line {number}: expected 'draft: d1 ... dk | target: t1 ... tk+1'"
        draft, target = match.group(1).split(" ")[1:], match.group(2).split(" ")[1:]
        if len(target) != len(draft) + 1:
            return (
                f"line {number}: {len(draft)} draft tokens need {len(draft) + 1} target tokens, "
                f"got {len(target)}"
            )
        total += tokens(draft, target)
        rounds += 1
    if not rounds:
        return "no rounds: at least one non-blank line is needed"
    if rounds > MAX_ROUNDS:
        return f"at most {MAX_ROUNDS:,} rounds, got {rounds:,}"
    if fragile_ratio(total, rounds):
        return f"{total} tokens in {rounds} rounds: the ratio is a tie float64 breaks"
    return None


# What a case exercises, for the statement's clauses (clauses: in exercises/specdec.yaml):
# each is true of a valid input that exercises its clause.


def _rounds(text: str) -> list[tuple[list[str], list[str]]]:
    found = []
    for line in text.split("\n"):
        match = ROUND.fullmatch(line)
        if match is not None:
            found.append((match.group(1).split(" ")[1:], match.group(2).split(" ")[1:]))
    return found


def blank_line(text: str) -> bool:
    """A blank line (or one of spaces) before the last round."""
    lines = text.rstrip("\n").split("\n")
    return any(not line.strip() for line in lines)


def fewest_or_most_rounds(text: str) -> bool:
    return len(_rounds(text)) in (1, MAX_ROUNDS)


def one_token_draft(text: str) -> bool:
    return any(len(draft) == 1 for draft, _ in _rounds(text))


def label_like_token(text: str) -> bool:
    """A token spelled like a label: draft: or target: (a token may hold a colon)."""
    return any({"draft:", "target:"} & {*d, *t} for d, t in _rounds(text))


def later_match(text: str) -> bool:
    """A mismatch followed, later in the same round, by a draft token that matches."""
    for draft, target in _rounds(text):
        stop = tokens(draft, target) - 1
        if any(draft[i] == target[i] for i in range(stop + 1, len(draft))):
            return True
    return False


def elsewhere_in_target(text: str) -> bool:
    """A mismatched draft token that the target holds at another position."""
    for draft, target in _rounds(text):
        stop = tokens(draft, target) - 1
        if stop < len(draft) and draft[stop] in target:
            return True
    return False


def differs_in_case_only(text: str) -> bool:
    for draft, target in _rounds(text):
        stop = tokens(draft, target) - 1
        if stop < len(draft) and draft[stop].lower() == target[stop].lower():
            return True
    return False


def every_draft_token_matched(text: str) -> bool:
    return any(tokens(d, t) == len(t) for d, t in _rounds(text))


def one_token_round(text: str) -> bool:
    """A round that adds a single token: "+1 tokens", the word still plural."""
    return any(tokens(d, t) == 1 for d, t in _rounds(text))


def ratio_tie(text: str) -> bool:
    """T / R exactly halfway between two hundredths (1.125)."""
    rounds = _rounds(text)
    if not rounds:
        return False
    exact = Fraction(sum(tokens(d, t) for d, t in rounds), len(rounds)) * 100
    return exact.denominator == 2


def no_final_newline(text: str) -> bool:
    """The last line ends without a newline, which the statement allows."""
    return not text.endswith("\n")


if __name__ == "__main__":
    why = problem(sys.stdin.read())
    if why:
        sys.exit(why)
