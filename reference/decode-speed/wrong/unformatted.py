"""Known wrong: prints the float as it comes instead of to 1 decimal.

expect: wrong_answer
"""

import sys

for line in sys.stdin:
    if line.strip():
        name, params, bpp, bandwidth, batch = line.split()
        weights = float(params) * float(bpp)
        print(f"{name}: {float(bandwidth) / weights * int(batch)} tokens/s")
