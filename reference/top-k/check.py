"""Checker for top-k: ``python check.py input expected < output``, in a folder holding both.

Several outputs are right (equal logits may come in any order, and any of the tokens tied at
the k-th place may be chosen), so instead of comparing text this checks that the output is
exactly k lines ``TOKEN LOGIT``, each token from the vocabulary and printed once, each logit
written exactly as the input writes it, highest logit first, and that the logits are those of
the expected output (so the tokens are a correct top-k). Trailing whitespace on a line and blank
lines at the end are tolerated; nothing else.

Exit 0 accepts; exit 1 rejects, with one line on stdout saying why; exit 2 means the input or
the expected output is broken: the grader's fault, never the student's.
"""

import sys
from decimal import Decimal, InvalidOperation

ACCEPT, REJECT, BROKEN = 0, 1, 2
TRAILING = " \t\r\f\v"


class Rejected(Exception):
    """The student's output is wrong; the message says why, in one line."""


class Broken(Exception):
    """The input or the expected output breaks the exercise's contract."""


def show(text: str, width: int = 40) -> str:
    """``text`` quoted for a one-line message, cut to ``width`` characters."""
    cut = text if len(text) <= width else text[: width - 3] + "..."
    return repr(cut)


def lines_of(text: str) -> list[str]:
    """The lines of ``text`` without trailing whitespace, blank lines at the end dropped."""
    lines = [line.rstrip(TRAILING) for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def value(logit: str) -> Decimal:
    try:
        return Decimal(logit)
    except InvalidOperation:
        raise Broken(f"not a decimal: {logit!r}") from None


def read_input(path: str) -> tuple[int, dict[str, str]]:
    """k and the vocabulary, token -> logit as written."""
    with open(path, encoding="ascii") as f:
        lines = lines_of(f.read())
    if len(lines) < 2 or not lines[0].isascii() or not lines[0].isdecimal():
        raise Broken("input: expected k, then 'TOKEN LOGIT' lines")
    vocabulary: dict[str, str] = {}
    for line in lines[1:]:
        token, logit = line.split(" ")
        value(logit)
        if token in vocabulary:
            raise Broken(f"input: token {token} twice")
        vocabulary[token] = logit
    k = int(lines[0])
    if not 1 <= k <= len(vocabulary):
        raise Broken(f"input: k = {k} with {len(vocabulary)} tokens")
    return k, vocabulary


def read_expected(path: str, k: int, vocabulary: dict[str, str]) -> list[Decimal]:
    """The expected output's logits, highest first, after checking they are a top-k."""
    with open(path, encoding="utf-8") as f:
        lines = lines_of(f.read())
    got = sorted((value(line.split(" ")[-1]) for line in lines), reverse=True)
    best = sorted((value(v) for v in vocabulary.values()), reverse=True)[:k]
    if got != best:
        raise Broken("expected output: its logits are not the input's k highest")
    return got


def judge(output: str, k: int, vocabulary: dict[str, str], expected: list[Decimal]) -> None:
    """Raise ``Rejected`` with the first problem of ``output``, line by line."""
    lines = lines_of(output)
    if not lines:
        raise Rejected(f"printed nothing; expected {k} lines 'TOKEN LOGIT'")
    printed: dict[str, int] = {}  # token -> the line it is on
    values: list[Decimal] = []
    entries: list[tuple[str, str]] = []
    for number, line in enumerate(lines, start=1):
        if not line:
            raise Rejected(f"line {number} is empty; print exactly {k} lines 'TOKEN LOGIT'")
        parts = line.split(" ")
        if len(parts) != 2 or not all(parts):
            raise Rejected(
                f"line {number}: expected 'TOKEN LOGIT' with one space between, got {show(line)}"
            )
        token, logit = parts
        if token not in vocabulary:
            raise Rejected(f"line {number}: unknown token {show(token)}")
        if token in printed:
            raise Rejected(
                f"line {number}: token {token} is printed twice (first on line {printed[token]})"
            )
        if logit != vocabulary[token]:
            raise Rejected(
                f"line {number}: token {token} has logit {vocabulary[token]} in the input, "
                f"but you printed {show(logit, 20)}; print it exactly as written"
            )
        current = value(logit)
        if values and current > values[-1]:
            raise Rejected(
                f"line {number}: {token} {logit} is higher than {' '.join(entries[-1])} on "
                f"line {number - 1}; print the highest logits first"
            )
        printed[token] = number
        values.append(current)
        entries.append((token, logit))
    if len(lines) != k:
        raise Rejected(f"expected {k} lines, got {len(lines)}")
    for number, (mine, best) in enumerate(zip(values, expected, strict=True), start=1):
        if mine != best:
            if mine > best:
                raise Broken("the expected output is not the k highest logits")
            missed = max(
                (t for t in vocabulary if t not in printed), key=lambda t: value(vocabulary[t])
            )
            token, logit = entries[number - 1]
            raise Rejected(
                f"line {number}: token {token} has logit {logit}, but {missed} with "
                f"{vocabulary[missed]} was left out"
            )


def main() -> int:
    try:
        k, vocabulary = read_input(sys.argv[1])
        expected = read_expected(sys.argv[2], k, vocabulary)
        output = sys.stdin.buffer.read().decode("utf-8", errors="replace")
        judge(output, k, vocabulary, expected)
    except Rejected as why:
        print(why)
        return REJECT
    except (Broken, OSError, UnicodeDecodeError, ValueError) as exc:
        print(f"top-k checker: {exc}", file=sys.stderr)
        return BROKEN
    return ACCEPT


if __name__ == "__main__":
    sys.exit(main())
