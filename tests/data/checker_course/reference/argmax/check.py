"""Checker: python check.py input expected < output; exit 0 accepts, 1 rejects (reason first)."""

import sys

with open(sys.argv[1]) as f:
    numbers = [int(x) for x in f.read().split()]
got = sys.stdin.read().split()
if len(got) != 1 or not got[0].isdigit() or not 1 <= int(got[0]) <= len(numbers):
    print(f"expected one position from 1 to {len(numbers)}, got {' '.join(got)[:40]!r}")
    sys.exit(1)
if numbers[int(got[0]) - 1] != max(numbers):
    print(f"line {got[0]} holds {numbers[int(got[0]) - 1]}, not the largest, {max(numbers)}")
    sys.exit(1)
