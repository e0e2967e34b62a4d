"""Accepted: a block's identity is the tuple of every token up to its end; the free queue is a
deque with lazy deletion (an entry is live while its stamp is the block's latest)."""

import sys
from collections import deque


def main() -> None:
    data = sys.stdin.read().splitlines()
    b, n = (int(x) for x in data[0].split())
    queue = deque((block, 0) for block in range(n))
    stamp = [0] * n  # the stamp of a block's live entry in the queue; -1: not in the queue
    refs = [0] * n
    holds = [None] * n  # the prefix tuple a block is cached under
    cache = {}
    requests = {}
    clock = 0
    report = []
    for line in data[1:]:
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "FINISH":
            for block in requests.pop(parts[1])[::-1]:
                refs[block] -= 1
                if refs[block] == 0:
                    clock += 1
                    stamp[block] = clock
                    queue.append((block, clock))
            continue
        rid, prompt = parts[1], tuple(parts[2:])
        length = len(prompt)
        prefixes = [prompt[:end] for end in range(b, length + 1, b)]
        hit = 0
        while hit < len(prefixes) and prefixes[hit] in cache:
            hit += 1
        if hit == len(prefixes) and length % b == 0:
            hit -= 1  # never below 0: with no full block, length < b is not a multiple
        used = []
        for prefix in prefixes[:hit]:
            block = cache[prefix]
            if refs[block] == 0:
                stamp[block] = -1
            refs[block] += 1
            used.append(block)
        evictions = 0
        for _ in range((length + b - 1) // b - hit):
            while True:
                block, when = queue.popleft()
                if stamp[block] == when:
                    break
            stamp[block] = -1
            if holds[block] is not None:
                del cache[holds[block]]
                holds[block] = None
                evictions += 1
            refs[block] = 1
            used.append(block)
        for i in range(hit, len(prefixes)):
            if prefixes[i] not in cache:
                cache[prefixes[i]] = used[i]
                holds[used[i]] = prefixes[i]
        requests[rid] = used
        report.append(
            f"{rid}: hit {hit} blocks, computed {length - hit * b} tokens, "
            f"evicted {evictions} blocks, uses {' '.join(map(str, used))}"
        )
    print("\n".join(report))


main()
