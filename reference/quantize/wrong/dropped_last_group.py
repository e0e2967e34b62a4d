"""Known wrong: only quantizes full groups, dropping a short last group.

expect: wrong_answer
"""

import sys

lines = sys.stdin.read().splitlines()
weights = [float(x) for x in lines[0].split()]
group = int(lines[1])
errors = []
for i in range(len(weights) // group):
    w = weights[i * group : (i + 1) * group]
    scale = max(abs(x) for x in w) / 127
    q = [round(x / scale) if scale else 0 for x in w]
    errors += [abs(x - k * scale) for x, k in zip(w, q)]
    print(f"group {i + 1}: scale {scale:.5f} q " + " ".join(map(str, q)))
print(f"mean error: {sum(errors) / max(1, len(errors)):.5f}")
