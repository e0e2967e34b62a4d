"""Accepted: tokens grouped by Decimal value, highest bucket first, each bucket last-in first."""

import sys
from collections import defaultdict
from decimal import Decimal

k = int(sys.stdin.readline())
buckets = defaultdict(list)  # value -> [(token, logit as written)], in input order
for line in sys.stdin:
    if line.strip():
        token, logit = line.split()
        buckets[Decimal(logit)].append((token, logit))

left = k
for value in sorted(buckets, reverse=True):
    for token, logit in reversed(buckets[value]):
        if left == 0:
            break
        print(token, logit)
        left -= 1
