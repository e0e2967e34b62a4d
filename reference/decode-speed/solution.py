"""Reference solution for decode-speed: memory-bound tokens per second."""

import sys

for line in sys.stdin:
    if not line.strip():
        continue
    name, params, bytes_per_param, bandwidth, batch = line.split()
    weights_gb = float(params) * float(bytes_per_param)
    print(f"{name}: {float(bandwidth) / weights_gb * int(batch):.1f} tokens/s")
