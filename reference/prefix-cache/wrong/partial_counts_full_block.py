"""Known wrong: counts a partial last block as B computed tokens: computed = (blocks - hits) * B.

expect: wrong_answer
"""

import sys
from collections import OrderedDict


def main() -> None:
    lines = sys.stdin.read().split("\n")
    size, count = map(int, lines[0].split())
    free: OrderedDict[int, None] = OrderedDict.fromkeys(range(count))  # head = evicted first
    refs = [0] * count
    content: list[int | None] = [None] * count  # the identity a block is cached under
    cached: dict[int, int] = {}  # identity -> the block cached under it
    numbers: dict[tuple[int, tuple[str, ...]], int] = {}  # (parent, tokens) -> identity
    running: dict[str, list[int]] = {}
    out = []
    for line in lines[1:]:
        if not line:
            continue
        words = line.split()
        if words[0] == "FINISH":
            for block in reversed(running.pop(words[1])):
                refs[block] -= 1
                if refs[block] == 0:
                    free[block] = None  # to the tail: the request's last block goes first
            continue
        name, prompt = words[1], words[2:]
        full = len(prompt) // size
        identities, parent = [], -1
        for i in range(full):
            key = (parent, tuple(prompt[i * size : (i + 1) * size]))
            parent = numbers.setdefault(key, len(numbers))
            identities.append(parent)
        hits = 0
        while hits < full and identities[hits] in cached:
            hits += 1
        if hits == full and full * size == len(prompt) and full > 0:
            hits -= 1  # one token at least must be computed: the last block is done again
        blocks = []
        for identity in identities[:hits]:
            block = cached[identity]
            if refs[block] == 0:
                del free[block]
            refs[block] += 1
            blocks.append(block)
        needed = -(-len(prompt) // size) - hits
        evicted = 0
        for _ in range(needed):
            block, _ = free.popitem(last=False)
            if content[block] is not None:
                del cached[content[block]]
                content[block] = None
                evicted += 1
            refs[block] = 1
            blocks.append(block)
        for i in range(hits, full):
            if identities[i] not in cached:
                cached[identities[i]] = blocks[i]
                content[blocks[i]] = identities[i]
        running[name] = blocks
        computed = len(blocks) * size - hits * size
        out.append(
            f"{name}: hit {hits} blocks, computed {computed} tokens, evicted {evicted} blocks,"
            f" uses {' '.join(map(str, blocks))}"
        )
    sys.stdout.write("".join(s + "\n" for s in out))


main()
