"""Accepted: a for loop over the running list, state in a dictionary, and each physical block
a small slotted object (its count of tables and its tokens); a sequence is [length, table].
Admission builds the table from the length: full blocks, then the last one."""

import sys
from collections import deque


class Group:
    """One physical block: the number of tables holding it, and its tokens."""

    __slots__ = ("refs", "tokens")

    def __init__(self, tokens):
        self.refs = 1
        self.tokens = tokens


def run(text):
    rows = text.split("\n")
    B, N = map(int, rows[0].split())
    state = {"free": N}
    seqs = {}  # name -> [length, [Group, ...]]
    queue = deque()
    running = []
    lines = []
    number = 0

    def release(name):
        for g in seqs[name][1]:
            g.refs -= 1
            if g.refs == 0:
                state["free"] += 1
        seqs[name][1] = []

    def admit(name):
        L = seqs[name][0]
        k = (L + B - 1) // B
        seqs[name][1] = [Group(B) for _ in range(k - 1)] + [Group(L - (k - 1) * B)]
        state["free"] -= k

    for row in rows[1:]:
        if not row:
            continue
        w = row.split(" ")
        if w[0] == "ADD":
            seqs[w[1]] = [int(w[2]), []]
            queue.append(w[1])
        elif w[0] == "FORK":
            seqs[w[2]] = [seqs[w[1]][0], list(seqs[w[1]][1])]
            for g in seqs[w[2]][1]:
                g.refs += 1
            running.append(w[2])
        elif w[0] == "FINISH":
            release(w[1])
            running.remove(w[1])
        else:
            number += 1
            while queue and (seqs[queue[0]][0] + B - 1) // B <= state["free"]:
                name = queue.popleft()
                admit(name)
                running.append(name)
            for name in running:
                if name not in running:
                    break
                while True:
                    L, table = seqs[name]
                    need = L % B == 0 or table[-1].refs > 1
                    if not need or state["free"]:
                        break
                    victim = running.pop()
                    release(victim)
                    queue.appendleft(victim)
                    lines.append("PREEMPT " + victim)
                    if victim == name:
                        break
                if name not in running:
                    break
                L, table = seqs[name]
                if L % B == 0:
                    table.append(Group(1))
                    state["free"] -= 1
                elif table[-1].refs > 1:
                    table[-1].refs -= 1
                    table[-1] = Group(table[-1].tokens + 1)
                    state["free"] -= 1
                else:
                    table[-1].tokens += 1
                seqs[name][0] = L + 1
            seen = {}
            for name in running:
                for g in seqs[name][1]:
                    seen[id(g)] = B - g.tokens
            used = N - state["free"]
            lines.append(
                f"step {number}: used {used} free {state['free']} "
                f"waste {sum(seen.values())} running {len(running)}: {' '.join(running)}"
            )
    return "\n".join(lines)


print(run(sys.stdin.read()))
