"""Accepted: bytes per step first, then the batch times the bandwidth over them."""

import sys

lines = [line.split() for line in sys.stdin.read().splitlines() if line.strip()]
for name, params, size, bandwidth, batch in lines:
    bytes_per_step = float(params) * 1e9 * float(size)
    tokens = int(batch) * float(bandwidth) * 1e9 / bytes_per_step
    print(f"{name}: {tokens:.1f} tokens/s")
