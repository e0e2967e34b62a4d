"""Known wrong: divides by the batch, as if each sequence needed its own pass over the weights.

expect: wrong_answer
"""

import sys

for line in sys.stdin:
    if line.strip():
        name, params, bpp, bandwidth, batch = line.split()
        weights = float(params) * float(bpp)
        print(f"{name}: {float(bandwidth) / weights / int(batch):.1f} tokens/s")
