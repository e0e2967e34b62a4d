"""Known wrong: keeps only logits strictly above the (k+1)-th highest, to avoid choosing
between tied tokens; a tie at the k-th place then leaves fewer than k lines.

expect: wrong_answer
"""

import sys

lines = sys.stdin.read().splitlines()
k = int(lines[0])
vocab = [line.split() for line in lines[1:]]
values = sorted((float(logit) for _, logit in vocab), reverse=True)
cutoff = values[k] if k < len(values) else float("-inf")  # the (k+1)-th highest logit
keep = [p for p in vocab if float(p[1]) > cutoff]
for token, logit in sorted(keep, key=lambda p: float(p[1]), reverse=True):
    print(token, logit)
