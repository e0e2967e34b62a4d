"""Known wrong: prints k + 1 tokens (counts from 0 to k inclusive).

expect: wrong_answer
"""

import sys

lines = sys.stdin.read().splitlines()
k = int(lines[0])
vocab = [line.split() for line in lines[1:]]
vocab.sort(key=lambda p: float(p[1]), reverse=True)
for i in range(k + 1):
    if i < len(vocab):
        print(vocab[i][0], vocab[i][1])
