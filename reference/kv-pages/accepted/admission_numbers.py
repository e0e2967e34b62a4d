"""Accepted: each running sequence carries its admission number; the victim is the running
sequence with the largest, and the generation order is by that number. Blocks are integers
from a stack, waste kept as a running total of free slots in used blocks."""

import sys


def main() -> None:
    lines = [line for line in sys.stdin.read().split("\n") if line]
    size, n = (int(x) for x in lines[0].split())
    stack = list(range(n))
    count = [0] * n
    held = [0] * n
    length: dict[str, int] = {}
    table: dict[str, list[int]] = {}
    admitted: dict[str, int] = {}  # running sequence -> admission number
    waiting: list[str] = []  # the head is waiting[-1]
    clock = 0
    waste = 0
    step = 0
    result: list[str] = []

    def new_block(tokens: int) -> int:
        nonlocal waste
        b = stack.pop()
        count[b], held[b] = 1, tokens
        waste += size - tokens
        return b

    def unref(b: int) -> None:
        nonlocal waste
        count[b] -= 1
        if count[b] == 0:
            waste -= size - held[b]
            stack.append(b)

    for line in lines[1:]:
        op, *args = line.split(" ")
        if op == "ADD":
            length[args[0]] = int(args[1])
            waiting.insert(0, args[0])
        elif op == "FORK":
            parent, child = args
            length[child] = length[parent]
            table[child] = table[parent].copy()
            for b in table[child]:
                count[b] += 1
            clock += 1
            admitted[child] = clock
        elif op == "FINISH":
            for b in table.pop(args[0]):
                unref(b)
            del admitted[args[0]]
        else:
            step += 1
            while waiting:
                head = waiting[-1]
                blocks = (length[head] - 1) // size + 1
                if blocks > len(stack):
                    break
                waiting.pop()
                table[head] = [new_block(min(size, length[head] - j * size)) for j in range(blocks)]
                clock += 1
                admitted[head] = clock
            for name in sorted(admitted, key=admitted.__getitem__):
                if name not in admitted:
                    continue  # preempted in this step
                while True:
                    last = table[name][-1]
                    full = length[name] % size == 0
                    if not (full or count[last] > 1) or stack:
                        break
                    victim = max(admitted, key=admitted.__getitem__)
                    del admitted[victim]
                    for b in table.pop(victim):
                        unref(b)
                    waiting.append(victim)
                    result.append(f"PREEMPT {victim}")
                    if victim == name:
                        break
                if name not in admitted:
                    break
                if full:
                    table[name].append(new_block(1))
                elif count[last] > 1:
                    count[last] -= 1
                    table[name][-1] = new_block(held[last] + 1)
                else:
                    held[last] += 1
                    waste -= 1
                length[name] += 1
            order = sorted(admitted, key=admitted.__getitem__)
            used = n - len(stack)
            result.append(
                f"step {step}: used {used} free {len(stack)} waste {waste} "
                f"running {len(order)}: " + " ".join(order)
            )
    print("\n".join(result))


main()
