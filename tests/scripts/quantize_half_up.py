# quantize rounded with int(x + 0.5): wrong on negative halves (case 03's hint names it)
import sys

lines = sys.stdin.read().splitlines()
w = [float(x) for x in lines[0].split()]
g = int(lines[1])
errors = []
for i, start in enumerate(range(0, len(w), g), 1):
    group = w[start : start + g]
    scale = max(abs(x) for x in group) / 127
    q = [int(x / scale + 0.5) if scale else 0 for x in group]
    errors += [abs(x - k * scale) for x, k in zip(group, q)]
    print(f"group {i}: scale {scale:.5f} q " + " ".join(map(str, q)))
print(f"mean error: {sum(errors) / len(errors):.5f}")
