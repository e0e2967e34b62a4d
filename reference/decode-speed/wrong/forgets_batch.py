"""Known wrong: ignores the batch, as if one sequence were decoded at a time.

expect: wrong_answer
"""

import sys

for line in sys.stdin:
    if line.strip():
        name, params, bpp, bandwidth, batch = line.split()
        print(f"{name}: {float(bandwidth) / (float(params) * float(bpp)):.1f} tokens/s")
