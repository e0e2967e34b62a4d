"""Known wrong: picks the right k tokens but prints them lowest logit first.

expect: wrong_answer
"""

import sys

lines = sys.stdin.read().splitlines()
k = int(lines[0])
vocab = [line.split() for line in lines[1:]]
vocab.sort(key=lambda p: float(p[1]), reverse=True)
top = vocab[:k]
for token, logit in sorted(top, key=lambda p: float(p[1])):
    print(token, logit)
