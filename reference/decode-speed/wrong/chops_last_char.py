"""Known wrong: drops each line's last character, taking it for a newline.

expect: wrong_answer
"""

import sys

for line in sys.stdin:
    if not line.strip():
        continue
    name, params, bytes_per_param, bandwidth, batch = line[:-1].split()
    weights_gb = float(params) * float(bytes_per_param)
    print(f"{name}: {float(bandwidth) / weights_gb * int(batch):.1f} tokens/s")
