"""Known wrong: one scale for the whole tensor instead of one per group.

expect: wrong_answer
"""

import sys

import numpy as np

lines = sys.stdin.read().splitlines()
weights = np.array([float(x) for x in lines[0].split()])
group = int(lines[1])
scale = np.abs(weights).max() / 127
errors = []
for i, start in enumerate(range(0, len(weights), group), start=1):
    w = weights[start : start + group]
    q = np.round(w / scale) if scale > 0 else np.zeros_like(w)
    errors.extend(np.abs(w - q * scale))
    print(f"group {i}: scale {scale:.5f} q " + " ".join(str(int(x)) for x in q))
print(f"mean error: {np.mean(errors):.5f}")
