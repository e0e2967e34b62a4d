"""Known wrong: counts the weights in bits (x8) instead of bytes.

expect: wrong_answer
"""

import sys

for line in sys.stdin:
    if line.strip():
        name, params, bpp, bandwidth, batch = line.split()
        weights = float(params) * float(bpp) * 8
        print(f"{name}: {float(bandwidth) / weights * int(batch):.1f} tokens/s")
