"""Known wrong: treats a small scale as zero (scale > 1e-6 instead of > 0).

expect: wrong_answer
"""

import sys

import numpy as np


def main() -> None:
    lines = sys.stdin.read().splitlines()
    weights = np.array([float(x) for x in lines[0].split()])
    group = int(lines[1])
    errors = np.empty_like(weights)
    for i, start in enumerate(range(0, len(weights), group), start=1):
        w = weights[start : start + group]
        scale = np.abs(w).max() / 127
        q = np.round(w / scale) if scale > 1e-6 else np.zeros_like(w)
        errors[start : start + group] = np.abs(w - q * scale)
        print(f"group {i}: scale {scale:.5f} q " + " ".join(str(int(x)) for x in q))
    print(f"mean error: {errors.mean():.5f}")


main()
