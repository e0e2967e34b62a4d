"""Reference solution for top-k: the k tokens with the highest logits, highest first."""

import sys
from decimal import Decimal


def main() -> None:
    lines = sys.stdin.read().splitlines()
    k = int(lines[0])
    vocabulary = [line.split(" ") for line in lines[1:]]
    # sorted() is stable, also with reverse=True: equal logits keep their input order
    ranked = sorted(vocabulary, key=lambda entry: Decimal(entry[1]), reverse=True)
    for token, logit in ranked[:k]:
        print(token, logit)


main()
