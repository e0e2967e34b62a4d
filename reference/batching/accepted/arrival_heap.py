"""Accepted: a heap of arrivals keyed by (arrival, id); the batch is a dict of tokens left."""

import heapq
import sys
from math import gcd

text = sys.stdin.read().split("\n")
head = text[0].split()
mode = head[0]
base, per_token, per_seq, cap = (int(x) for x in head[1:])
rows = [tuple(int(x) for x in line.split()) for line in text[1:] if line.strip()]
info = {rid: (arrival, prompt, output) for rid, arrival, prompt, output in rows}
pending = [(arrival, rid) for rid, arrival, _, _ in rows]
heapq.heapify(pending)
left: dict[int, int] = {}  # running id -> tokens still to produce
first: dict[int, int] = {}
done: dict[int, int] = {}
clock = 0
while pending or left:
    if not left and pending[0][0] > clock:
        clock = pending[0][0]
    fresh = []
    if mode == "continuous" or not left:
        while pending and pending[0][0] <= clock and len(left) + len(fresh) < cap:
            fresh.append(heapq.heappop(pending)[1])
    clock += base + per_token * sum(info[r][1] for r in fresh) + per_seq * len(left)
    for rid in list(left):
        left[rid] -= 1
        if left[rid] == 0:
            del left[rid]
            done[rid] = clock
    for rid in fresh:
        first[rid] = clock
        if info[rid][2] == 1:
            done[rid] = clock
        else:
            left[rid] = info[rid][2] - 1
total = sum(first[r] - info[r][0] for r in info)
n = len(rows)
g = gcd(total, n)
for rid, *_ in rows:
    print(f"{rid}: first {first[rid]} finish {done[rid]}")
print(f"makespan {max(done.values())}")
print(f"mean ttft {total // g}" + (f"/{n // g}" if n // g != 1 else ""))
