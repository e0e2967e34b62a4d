"""Accepted: a block is a number with a reference count, and only the last block of a table can
be partly full, so the waste is found from the distinct last blocks alone: B minus the tokens of
the last logical block, L - (ceil(L/B) - 1) * B, each shared last block once."""

import sys
from collections import deque


def ceil_div(a, b):
    return -(-a // b)


def main():
    it = iter(sys.stdin.read().split("\n"))
    B, N = map(int, next(it).split())
    refs = {}
    free_ids = deque(range(N))
    length = {}
    tables = {}
    waiting = deque()
    running = []
    out = []
    k = 0
    for line in it:
        w = line.split()
        if not w:
            continue
        op = w[0]
        if op == "ADD":
            length[w[1]] = int(w[2])
            waiting.append(w[1])
        elif op == "FORK":
            length[w[2]] = length[w[1]]
            tables[w[2]] = tables[w[1]][:]
            for b in tables[w[2]]:
                refs[b] += 1
            running.append(w[2])
        elif op == "FINISH":
            for b in tables.pop(w[1]):
                refs[b] -= 1
                if refs[b] == 0:
                    del refs[b]
                    free_ids.append(b)
            running.remove(w[1])
        else:
            k += 1
            while waiting and ceil_div(length[waiting[0]], B) <= len(free_ids):
                s = waiting.popleft()
                tables[s] = [free_ids.popleft() for _ in range(ceil_div(length[s], B))]
                for b in tables[s]:
                    refs[b] = 1
                running.append(s)
            pos = 0
            while pos < len(running):
                s = running[pos]

                def needs(s=s):
                    return length[s] % B == 0 or refs[tables[s][-1]] > 1

                while needs() and not free_ids:
                    v = running.pop()
                    for b in tables.pop(v):
                        refs[b] -= 1
                        if refs[b] == 0:
                            del refs[b]
                            free_ids.append(b)
                    waiting.appendleft(v)
                    out.append("PREEMPT " + v)
                    if v == s:
                        break
                if s not in tables:
                    break
                if needs():
                    if length[s] % B != 0:
                        refs[tables[s][-1]] -= 1
                        tables[s].pop()
                    b = free_ids.popleft()
                    refs[b] = 1
                    tables[s].append(b)
                length[s] += 1
                pos += 1
            lasts = {}
            for s in running:
                lasts[tables[s][-1]] = B - (length[s] - (ceil_div(length[s], B) - 1) * B)
            used = N - len(free_ids)
            out.append(
                "step %d: used %d free %d waste %d running %d: %s"
                % (k, used, len(free_ids), sum(lasts.values()), len(running), " ".join(running))
            )
    print("\n".join(out))


main()
