"""Reference solution for kv-pages: PagedAttention's block manager, step by step.

Physical blocks are numbers with a reference count and the tokens they hold; which free block
is taken is never printed, so a stack of free numbers serves.
"""

import sys
from collections import deque


def main() -> None:
    lines = sys.stdin.read().split("\n")
    size, count = map(int, lines[0].split())
    refs = [0] * count  # sequences whose table holds the block
    fill = [0] * count  # tokens written in the block
    free = list(range(count))
    tokens: dict[str, int] = {}  # a sequence's L: its prompt plus what it generated
    table: dict[str, list[int]] = {}
    waiting: deque[str] = deque()
    running: list[str] = []  # admission order, least recent first
    held = 0  # tokens in used blocks, each block once
    out = []
    step = 0

    def take(n: int) -> int:
        block = free.pop()
        refs[block] = 1
        fill[block] = n
        return block

    def release(name: str) -> None:
        nonlocal held
        for block in table.pop(name):
            refs[block] -= 1
            if refs[block] == 0:
                held -= fill[block]
                free.append(block)

    for line in lines[1:]:
        if not line:
            continue
        words = line.split()
        if words[0] == "ADD":
            tokens[words[1]] = int(words[2])
            waiting.append(words[1])
        elif words[0] == "FORK":
            parent, child = words[1], words[2]
            tokens[child] = tokens[parent]
            table[child] = list(table[parent])
            for block in table[child]:
                refs[block] += 1
            running.append(child)
        elif words[0] == "FINISH":
            release(words[1])
            running.remove(words[1])
        else:
            step += 1
            while waiting and -(-tokens[waiting[0]] // size) <= len(free):
                name = waiting.popleft()
                length = tokens[name]
                table[name] = [take(min(size, length - i)) for i in range(0, length, size)]
                held += length
                running.append(name)
            i = 0
            while i < len(running):
                name = running[i]
                while True:
                    last = table[name][-1]
                    if tokens[name] % size == 0:
                        need = "new"
                    elif refs[last] > 1:
                        need = "copy"
                    else:
                        need = ""
                    if not need or free:
                        break
                    victim = running.pop()
                    release(victim)
                    waiting.appendleft(victim)
                    out.append(f"PREEMPT {victim}")
                    if victim == name:
                        break
                if i >= len(running):
                    break  # the sequence preempted itself
                if need == "new":
                    table[name].append(take(1))
                elif need == "copy":
                    refs[last] -= 1  # copy-on-write: the others keep the shared block
                    table[name][-1] = take(fill[last] + 1)
                    held += fill[last]
                else:
                    fill[last] += 1
                held += 1
                tokens[name] += 1
                i += 1
            used = count - len(free)
            out.append(
                f"step {step}: used {used} free {len(free)} waste {used * size - held} "
                f"running {len(running)}: {' '.join(running)}"
            )
    print("\n".join(out))


main()
