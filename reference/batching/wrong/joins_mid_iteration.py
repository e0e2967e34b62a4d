"""Known wrong: lets a request that arrives during an iteration join that very
iteration (its prefill added to it) instead of waiting for the boundary at its end.

expect: wrong_answer
"""

import sys
from fractions import Fraction

lines = sys.stdin.read().split("\n")
mode, *costs = lines[0].split()
base, per_token, per_seq, cap = map(int, costs)
reqs = [list(map(int, line.split())) for line in lines[1:] if line]
queue = sorted(reqs, key=lambda r: (r[1], r[0]))
first, finish, made = {}, {}, {}
batch = []
now, k = 0, 0
while k < len(queue) or batch:
    if not batch and queue[k][1] > now:
        now = queue[k][1]
    joined = []
    if mode == "continuous" or not batch:
        while k < len(queue) and queue[k][1] <= now and len(batch) + len(joined) < cap:
            joined.append(queue[k])
            k += 1
    end = now + base + per_token * sum(r[2] for r in joined) + per_seq * len(batch)
    while (
        (mode == "continuous" or not batch)
        and k < len(queue)
        and queue[k][1] < end
        and len(batch) + len(joined) < cap
    ):
        joined.append(queue[k])  # the batch stays open until the iteration ends
        k += 1
        end = now + base + per_token * sum(r[2] for r in joined) + per_seq * len(batch)
    now = end
    for r in batch + joined:
        made[r[0]] = made.get(r[0], 0) + 1
        if made[r[0]] == 1:
            first[r[0]] = now
        if made[r[0]] == r[3]:
            finish[r[0]] = now
    batch = [r for r in batch + joined if made[r[0]] < r[3]]
for r in reqs:
    print(f"{r[0]}: first {first[r[0]]} finish {finish[r[0]]}")
print("makespan", max(finish.values()))
print("mean ttft", Fraction(sum(first[r[0]] - r[1] for r in reqs), len(reqs)))
