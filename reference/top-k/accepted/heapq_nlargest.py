"""Accepted: heapq.nlargest with a float key, written to stdout in one go."""

import heapq
import sys

first, *rest = sys.stdin.read().splitlines()
vocab = [tuple(line.split(" ")) for line in rest]
best = heapq.nlargest(int(first), vocab, key=lambda entry: float(entry[1]))
sys.stdout.write("".join("%s %s\n" % entry for entry in best))
