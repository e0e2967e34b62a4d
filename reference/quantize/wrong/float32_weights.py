"""Known wrong: holds the weights in float32 (as model weights often are), which keeps about 7
significant digits: a 12-digit weight of size 1e5 and its scale print wrong at 5 decimals.

expect: wrong_answer
"""

import sys

import numpy as np


def main() -> None:
    lines = sys.stdin.read().splitlines()
    weights = np.array([float(x) for x in lines[0].split()], dtype=np.float32)
    group = int(lines[1])
    errors = np.empty_like(weights)
    for i, start in enumerate(range(0, len(weights), group), start=1):
        w = weights[start : start + group]
        scale = np.abs(w).max() / 127
        q = np.round(w / scale) if scale > 0 else np.zeros_like(w)
        errors[start : start + group] = np.abs(w - q * scale)
        print(f"group {i}: scale {scale:.5f} q " + " ".join(str(int(x)) for x in q))
    print(f"mean error: {errors.mean():.5f}")


main()
