"""Accepted: objects for blocks and sequences, and a count of free blocks (which block is
free never matters). Waste is summed over the used blocks, found through the tables."""

import sys


class Block:
    def __init__(self, tokens: int) -> None:
        self.refs = 1
        self.tokens = tokens


class Sequence:
    def __init__(self, name: str, length: int) -> None:
        self.name = name
        self.length = length
        self.table: list[Block] = []


def main() -> None:
    data = sys.stdin.read().splitlines()
    size, total = map(int, data[0].split())
    free = total
    seqs: dict[str, Sequence] = {}
    waiting: list[Sequence] = []
    running: list[Sequence] = []
    out: list[str] = []
    steps = 0

    def drop(seq: Sequence) -> None:
        nonlocal free
        for block in seq.table:
            block.refs -= 1
            if block.refs == 0:
                free += 1
        seq.table = []

    for line in data[1:]:
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "ADD":
            seq = Sequence(parts[1], int(parts[2]))
            seqs[seq.name] = seq
            waiting.append(seq)
        elif parts[0] == "FORK":
            parent = seqs[parts[1]]
            child = Sequence(parts[2], parent.length)
            child.table = parent.table[:]
            for block in child.table:
                block.refs += 1
            seqs[child.name] = child
            running.append(child)
        elif parts[0] == "FINISH":
            seq = seqs[parts[1]]
            drop(seq)
            running.remove(seq)
        else:
            steps += 1
            while waiting:
                head = waiting[0]
                need = (head.length + size - 1) // size
                if need > free:
                    break
                waiting.pop(0)
                free -= need
                left = head.length
                for _ in range(need):
                    head.table.append(Block(min(size, left)))
                    left -= size
                running.append(head)
            k = 0
            while k < len(running):
                seq = running[k]
                gone = False
                while True:
                    last = seq.table[-1]
                    wants = seq.length % size == 0 or last.refs > 1
                    if not wants or free > 0:
                        break
                    victim = running.pop()
                    drop(victim)
                    waiting.insert(0, victim)
                    out.append("PREEMPT " + victim.name)
                    if victim is seq:
                        gone = True
                        break
                if gone:
                    break
                if seq.length % size == 0:
                    seq.table.append(Block(1))
                    free -= 1
                elif last.refs > 1:
                    last.refs -= 1
                    seq.table[-1] = Block(last.tokens + 1)
                    free -= 1
                else:
                    last.tokens += 1
                seq.length += 1
                k += 1
            used = {}
            for seq in running:
                for block in seq.table:
                    used[id(block)] = block
            waste = sum(size - b.tokens for b in used.values())
            names = " ".join(s.name for s in running)
            out.append(
                f"step {steps}: used {total - free} free {free} waste {waste} "
                f"running {len(running)}: {names}"
            )
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))


main()
