"""Known wrong: keeps the results in a dict by name, so a name given twice is printed once.

expect: wrong_answer
"""

import sys

speeds = {}
for line in sys.stdin:
    if line.strip():
        name, params, bpp, bandwidth, batch = line.split()
        speeds[name] = float(bandwidth) / (float(params) * float(bpp)) * int(batch)
for name, speed in speeds.items():
    print(f"{name}: {speed:.1f} tokens/s")
