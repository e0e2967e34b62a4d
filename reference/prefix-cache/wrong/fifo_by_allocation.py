"""Known wrong: evicts the free block that was allocated longest ago, instead of the head of
the free queue (the order blocks were freed in, last block first).

expect: wrong_answer
"""

import sys

lines = sys.stdin.read().split("\n")
size, count = map(int, lines[0].split())
allocated_at = list(range(-count, 0))  # the pool's order at the start
refs = [0] * count
content = [None] * count
cached = {}
running = {}
clock = 0
for line in lines[1:]:
    if not line:
        continue
    words = line.split()
    if words[0] == "FINISH":
        for block in running.pop(words[1]):
            refs[block] -= 1
        continue
    name, prompt = words[1], words[2:]
    keys = [tuple(prompt[: (i + 1) * size]) for i in range(len(prompt) // size)]
    hits = 0
    while hits < len(keys) and keys[hits] in cached:
        hits += 1
    if keys and hits == len(keys) and len(prompt) % size == 0:
        hits -= 1
    blocks = [cached[key] for key in keys[:hits]]
    for block in blocks:
        refs[block] += 1
    evicted = 0
    for _ in range(-(-len(prompt) // size) - hits):
        block = min((b for b in range(count) if refs[b] == 0), key=allocated_at.__getitem__)
        clock += 1
        allocated_at[block] = clock
        if content[block] is not None:
            del cached[content[block]]
            content[block] = None
            evicted += 1
        refs[block] = 1
        blocks.append(block)
    for i in range(hits, len(keys)):
        if keys[i] not in cached:
            cached[keys[i]] = blocks[i]
            content[blocks[i]] = keys[i]
    running[name] = blocks
    computed = len(prompt) - hits * size
    print(
        f"{name}: hit {hits} blocks, computed {computed} tokens, evicted {evicted} blocks,"
        f" uses {' '.join(map(str, blocks))}"
    )
