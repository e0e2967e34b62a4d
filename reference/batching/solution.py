"""Reference for batching: continuous (iteration-level) against static (request-level) batching.

The engine runs one iteration after another; between two iterations (a boundary) finished
requests leave and waiting ones may join. Continuous batching lets them join at every boundary
while there is room; static batching only when the batch is empty.
"""

import sys
from fractions import Fraction


def main() -> None:
    lines = [line for line in sys.stdin.read().split("\n") if line.strip()]
    mode, *costs = lines[0].split()
    base, per_token, per_seq, max_batch = map(int, costs)
    requests = []  # (arrival, id, prompt, output, position in the input)
    for index, line in enumerate(lines[1:]):
        rid, arrival, prompt, output = map(int, line.split())
        requests.append((arrival, rid, prompt, output, index))
    order = sorted(requests)  # first come first served, ties by the smaller id
    first = [0] * len(requests)
    finish = [0] * len(requests)
    produced = [0] * len(requests)
    batch: list[tuple[int, int, int, int, int]] = []
    nxt = 0  # the next request of `order` not yet admitted
    now = 0
    while nxt < len(order) or batch:
        if not batch and order[nxt][0] > now:
            now = order[nxt][0]  # idle: jump to the next arrival
        joined = []
        if mode == "continuous" or not batch:
            while (
                nxt < len(order) and len(batch) + len(joined) < max_batch and order[nxt][0] <= now
            ):
                joined.append(order[nxt])
                nxt += 1
        cost = base + per_token * sum(r[2] for r in joined) + per_seq * len(batch)
        now += cost
        for r in batch + joined:
            produced[r[4]] += 1
            if produced[r[4]] == 1:
                first[r[4]] = now
            if produced[r[4]] == r[3]:
                finish[r[4]] = now
        batch = [r for r in batch + joined if produced[r[4]] < r[3]]
    out = []
    for _, rid, _, _, index in sorted(requests, key=lambda r: r[4]):
        out.append(f"{rid}: first {first[index]} finish {finish[index]}")
    out.append(f"makespan {max(finish)}")
    mean = Fraction(sum(first[r[4]] - r[0] for r in requests), len(requests))
    out.append(f"mean ttft {mean.numerator}" if mean.denominator == 1 else f"mean ttft {mean}")
    print("\n".join(out))


main()
