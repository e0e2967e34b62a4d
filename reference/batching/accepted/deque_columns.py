"""Accepted: parallel lists (columns), a deque of waiting indices, a list of running ones."""

import sys
from collections import deque
from fractions import Fraction

data = sys.stdin.buffer.read().split()
mode = data[0].decode()
base, per_token, per_seq, cap = map(int, data[1:5])
numbers = list(map(int, data[5:]))
ids, arrivals = numbers[0::4], numbers[1::4]
prompts, outputs = numbers[2::4], numbers[3::4]
n = len(ids)
waiting = deque(sorted(range(n), key=lambda i: (arrivals[i], ids[i])))
produced = [0] * n
first = [0] * n
finish = [0] * n
running: list[int] = []
t = 0
while waiting or running:
    if not running and arrivals[waiting[0]] > t:
        t = arrivals[waiting[0]]
    new: list[int] = []
    if mode == "continuous" or not running:
        room = cap - len(running)
        while waiting and room and arrivals[waiting[0]] <= t:
            new.append(waiting.popleft())
            room -= 1
    t += base + per_token * sum(prompts[i] for i in new) + per_seq * len(running)
    keep = []
    for i in running:
        produced[i] += 1
        if produced[i] == outputs[i]:
            finish[i] = t
        else:
            keep.append(i)
    for i in new:
        produced[i] = 1
        first[i] = t
        if outputs[i] == 1:
            finish[i] = t
        else:
            keep.append(i)
    running = keep
out = [f"{ids[i]}: first {first[i]} finish {finish[i]}" for i in range(n)]
out.append(f"makespan {max(finish)}")
out.append(f"mean ttft {Fraction(sum(first) - sum(arrivals), n)}")
sys.stdout.write("\n".join(out) + "\n")
