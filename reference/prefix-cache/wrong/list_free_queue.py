"""Known wrong: keeps the free queue in a Python list (list.pop(0), list.remove): O(N) per
block taken or hit, too slow for N = 100,000.

expect: timeout
"""

import sys


def main():
    data = sys.stdin.read().split("\n")
    B, N = map(int, data[0].split())
    free = list(range(N))  # head at index 0
    ref = [0] * N
    ident_of = [None] * N  # identity a physical block is cached under
    cache = {}  # identity -> physical block
    reqs = {}
    out = []
    for line in data[1:]:
        if not line.strip():
            continue
        parts = line.split()
        if parts[0] == "FINISH":
            blocks = reqs.pop(parts[1])
            for b in reversed(blocks):
                ref[b] -= 1
                if ref[b] == 0:
                    free.append(b)
            continue
        rid = parts[1]
        toks = parts[2:]
        L = len(toks)
        nfull = L // B
        idents = [tuple(toks[: (i + 1) * B]) for i in range(nfull)]
        h = 0
        while h < nfull and idents[h] in cache:
            h += 1
        if h == nfull and L % B == 0:
            h -= 1
        used = []
        for i in range(h):
            b = cache[idents[i]]
            if ref[b] == 0:
                free.remove(b)
            ref[b] += 1
            used.append(b)
        ev = 0
        nblocks = (L + B - 1) // B
        for _ in range(h, nblocks):
            b = free.pop(0)
            if ident_of[b] is not None:
                del cache[ident_of[b]]
                ident_of[b] = None
                ev += 1
            ref[b] = 1
            used.append(b)
        for i in range(h, nfull):
            if idents[i] not in cache:
                cache[idents[i]] = used[i]
                ident_of[used[i]] = idents[i]
        reqs[rid] = used
        out.append(
            f"{rid}: hit {h} blocks, computed {L - h * B} tokens, evicted {ev} blocks, "
            f"uses {' '.join(map(str, used))}"
        )
    print("\n".join(out))


main()
