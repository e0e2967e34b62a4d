"""Known wrong: prints float(logit) instead of the logit as written ("1.50" comes out "1.5").

expect: wrong_answer
"""

import sys

lines = sys.stdin.read().splitlines()
k = int(lines[0])
vocab = [(line.split()[0], float(line.split()[1])) for line in lines[1:]]
vocab.sort(key=lambda p: p[1], reverse=True)
for token, logit in vocab[:k]:
    print(token, logit)
