"""Known wrong: reads the bandwidth in GiB/s (2^30 bytes) instead of GB/s (10^9 bytes).

expect: wrong_answer
"""

import sys

for line in sys.stdin:
    if line.strip():
        name, params, bpp, bandwidth, batch = line.split()
        bytes_per_s = float(bandwidth) * 2**30
        weights = float(params) * 1e9 * float(bpp)
        print(f"{name}: {bytes_per_s / weights * int(batch):.1f} tokens/s")
