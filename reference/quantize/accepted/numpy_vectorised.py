"""Accepted: numpy, every group at once (padded to a rectangle), q = rint(w / m * 127)."""

import sys

import numpy as np

lines = sys.stdin.read().split("\n")
w = np.array(lines[0].split(), dtype=np.float64)
g = int(lines[1])
n = len(w)
rows = -(-n // g)
padded = np.zeros(rows * g)
padded[:n] = w
blocks = padded.reshape(rows, g)
m = np.abs(blocks).max(axis=1)
safe = np.where(m > 0, m, 1.0)
q = np.rint(blocks / safe[:, None] * 127)
scale = m / 127
error = np.abs(blocks - q * scale[:, None]).reshape(-1)[:n]
for i in range(rows):
    size = min(g, n - i * g)
    print(f"group {i + 1}: scale {scale[i]:.5f} q " + " ".join(str(int(x)) for x in q[i, :size]))
print(f"mean error: {error.mean():.5f}")
