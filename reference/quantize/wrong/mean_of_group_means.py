"""Known wrong: averages each group's mean error instead of the error of every weight.

expect: wrong_answer
"""

import sys

lines = sys.stdin.read().splitlines()
weights = [float(x) for x in lines[0].split()]
group = int(lines[1])
means = []
for i, start in enumerate(range(0, len(weights), group), start=1):
    w = weights[start : start + group]
    scale = max(abs(x) for x in w) / 127
    q = [round(x / scale) if scale else 0 for x in w]
    means.append(sum(abs(x - k * scale) for x, k in zip(w, q)) / len(w))
    print(f"group {i}: scale {scale:.5f} q " + " ".join(map(str, q)))
print(f"mean error: {sum(means) / len(means):.5f}")
