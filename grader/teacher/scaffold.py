"""What ``grade new NAME`` writes: a tiny but complete exercise that passes ``grade verify``."""

from __future__ import annotations

from ..model.cases import INPUT, PUBLIC, SECRET


def files(name: str) -> dict[str, str]:
    return {
        f"exercises/{name}.yaml": SPEC.replace("NAME", name),
        f"reference/{name}/solution.py": SOLUTION,
        f"reference/{name}/validate.py": VALIDATE,
        f"reference/{name}/generate.py": GENERATE,
        f"reference/{name}/wrong/drops_last_number.py": WRONG,
        f"cases/{name}/{PUBLIC}/01-sample{INPUT}": "1 2 3\n",
        f"cases/{name}/{SECRET}/02-negative{INPUT}": "-5 2 -1\n",
    }


SPEC = """\
title: NAME (a sum, until you edit it)
statement: |
  Read whole numbers on one line, separated by single spaces, and print their sum.

  Example: the input
    1 2 3
  prints
    6
limits:
  time_s: 5
  memory_mb: 512
  output_kb: 1024
compare:
  method: tokens
  options:
    tolerance_ulps: 1  # decimals may be off by one unit in the last printed place
cases:
  01-sample:
    title: A first sample
    sample: true
    hint: Add every number on the line, the last one included.
"""

SOLUTION = '''\
"""Reference solution: prints the sum of the numbers on the first line."""

import sys

print(sum(int(x) for x in sys.stdin.readline().split()))
'''

VALIDATE = '''\
"""Accept an input (exit 0) or reject it with the reason on stderr (exit 1)."""

import re
import sys

text = sys.stdin.read()
if not re.fullmatch(r"-?\\d+( -?\\d+)*\\n?", text):
    sys.exit("expected one line of whole numbers separated by single spaces")
'''

GENERATE = '''\
"""A random input: python generate.py SEED SIZE (the same seed gives the same input)."""

import random
import sys

seed, size = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
print(" ".join(str(rng.randint(-1000, 1000)) for _ in range(max(1, size))))
'''

WRONG = '''\
"""Known wrong: forgets the last number.

expect: wrong_answer
"""

import sys

numbers = [int(x) for x in sys.stdin.readline().split()]
print(sum(numbers[:-1]))
'''
