"""Accepted: logits as whole ten-thousandths parsed by hand, ascending sort, then reversed (so
equal logits come out in reverse input order, and a different token wins a tie at k)."""

import sys


def ten_thousandths(logit):
    negative = logit.startswith("-")
    whole, _, part = logit.lstrip("-").partition(".")
    n = int(whole) * 10000 + int(part.ljust(4, "0"))
    return -n if negative else n


data = sys.stdin.read().split()
k = int(data[0])
vocab = list(zip(data[1::2], data[2::2]))
vocab.sort(key=lambda tl: ten_thousandths(tl[1]))
vocab.reverse()
out = []
for i in range(k):
    out.append("%s %s" % vocab[i])
print("\n".join(out))
