"""Accepted: an event loop over boundaries; a running request is kept as its finish
iteration number, so an iteration only looks at the requests that finish in it."""

import sys
from collections import defaultdict
from fractions import Fraction


def main() -> None:
    lines = sys.stdin.read().strip("\n").split("\n")
    mode, b, pt, ps, cap = lines[0].split(" ")
    base, per_token, per_seq, cap = int(b), int(pt), int(ps), int(cap)
    reqs = [tuple(map(int, line.split(" "))) for line in lines[1:]]
    arrivals = sorted((a, rid, p, o) for rid, a, p, o in reqs)
    first, finish = {}, {}
    ends_at = defaultdict(list)  # iteration number -> requests finishing in it
    size = 0  # requests in the batch
    decoding = 0  # of them, those past their prefill
    step = 0  # iterations run so far
    now, k = 0, 0
    while k < len(arrivals) or size:
        if size == 0 and arrivals[k][0] > now:
            now = arrivals[k][0]
        prefill, joined = 0, 0
        if mode == "continuous" or size == 0:
            while k < len(arrivals) and arrivals[k][0] <= now and size + joined < cap:
                _, rid, p, o = arrivals[k]
                k += 1
                joined += 1
                prefill += p
                ends_at[step + o].append(rid)  # iterations step+1 .. step+o
        now += base + per_token * prefill + per_seq * decoding
        step += 1
        for rid in arrivals[k - joined : k]:
            first[rid[1]] = now
        size += joined
        decoding += joined
        for rid in ends_at.pop(step, ()):
            finish[rid] = now
            size -= 1
            decoding -= 1
    for rid, _, _, _ in reqs:
        print(f"{rid}: first {first[rid]} finish {finish[rid]}")
    print(f"makespan {max(finish.values())}")
    print(f"mean ttft {Fraction(sum(first[r[0]] - r[1] for r in reqs), len(reqs))}")


main()
