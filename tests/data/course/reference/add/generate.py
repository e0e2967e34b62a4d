"""A random input: python generate.py SEED SIZE (the same seed gives the same input)."""

import random
import sys

seed, size = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
print(" ".join(str(rng.randint(-1000, 1000)) for _ in range(max(1, size))))
