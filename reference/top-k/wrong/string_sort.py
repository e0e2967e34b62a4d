"""Known wrong: sorts the logits as text, so "9.5" beats "10.25" and "-1" beats "-0.5".

expect: wrong_answer
"""

import sys

lines = sys.stdin.read().splitlines()
k = int(lines[0])
vocab = [line.split() for line in lines[1:]]
vocab.sort(key=lambda p: p[1], reverse=True)
for token, logit in vocab[:k]:
    print(token, logit)
