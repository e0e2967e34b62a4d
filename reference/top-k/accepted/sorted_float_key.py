"""Accepted: sorted() on a negated float key (exact enough: at most 4 decimals, |x| < 1000)."""

import sys

lines = sys.stdin.read().split("\n")
k = int(lines[0])
pairs = [line.split() for line in lines[1:] if line.strip()]
pairs = sorted(pairs, key=lambda p: -float(p[1]))
for token, logit in pairs[:k]:
    print(token + " " + logit)
