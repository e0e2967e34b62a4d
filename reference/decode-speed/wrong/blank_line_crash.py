"""Known wrong: splits every line into its five fields, so a blank line crashes it.

expect: runtime_error
"""

import sys

for line in sys.stdin:
    name, params, bpp, bandwidth, batch = line.split()
    weights = float(params) * float(bpp)
    print(f"{name}: {float(bandwidth) / weights * int(batch):.1f} tokens/s")
