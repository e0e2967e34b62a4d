"""Known wrong: truncates w / scale toward zero instead of rounding it.

expect: wrong_answer
"""

import sys

lines = sys.stdin.read().splitlines()
weights = [float(x) for x in lines[0].split()]
group = int(lines[1])
errors = []
for i, start in enumerate(range(0, len(weights), group), start=1):
    w = weights[start : start + group]
    scale = max(abs(x) for x in w) / 127
    q = [int(x / scale) if scale else 0 for x in w]
    errors += [abs(x - k * scale) for x, k in zip(w, q)]
    print(f"group {i}: scale {scale:.5f} q " + " ".join(map(str, q)))
print(f"mean error: {sum(errors) / len(errors):.5f}")
