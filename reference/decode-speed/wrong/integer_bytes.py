"""Known wrong: parses BYTES_PER_PARAM as an integer, so int4's 0.5 crashes it.

expect: runtime_error
"""

import sys

for line in sys.stdin:
    if line.strip():
        name, params, bpp, bandwidth, batch = line.split()
        weights = float(params) * int(bpp)
        print(f"{name}: {float(bandwidth) / weights * int(batch):.1f} tokens/s")
