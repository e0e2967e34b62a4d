"""Checker: python check.py input expected < output; exit 0 accepts, 1 rejects (reason first)."""

import re
import sys

with open(sys.argv[1]) as f:
    n = int(f.read())
with open(sys.argv[2]) as f:
    expected = f.read().split()
got = sys.stdin.read().split()
if len(got) != 1:
    print(f"expected one answer, got {len(got)} tokens")
    sys.exit(1)
if expected == ["prime"] or got == ["prime"]:
    if got != expected:
        print(f"{n} is {'prime' if expected == ['prime'] else 'not prime'}")
        sys.exit(1)
    sys.exit(0)
if not re.fullmatch(r"[0-9]+", got[0]) or not 1 < int(got[0]) < n or n % int(got[0]):
    print(f"{got[0]} is not a divisor of {n} between 1 and {n}")
    sys.exit(1)
