"""Accepted: steps per second (bandwidth over weight bytes), each step a token per sequence."""

import sys


def rate(params: str, size: str, bandwidth: str, batch: str) -> float:
    steps = float(bandwidth) / float(params) / float(size)
    return steps * int(batch)


for raw in sys.stdin:
    parts = raw.split()
    if parts:
        print("%s: %.1f tokens/s" % (parts[0], rate(*parts[1:])))
