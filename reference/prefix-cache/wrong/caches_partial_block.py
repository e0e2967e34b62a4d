"""Known wrong: caches the partial last block too, as if it were a full block (so taking it
later counts as an eviction).

expect: wrong_answer
"""

import sys
from collections import OrderedDict

lines = sys.stdin.read().split("\n")
size, count = map(int, lines[0].split())
free = OrderedDict.fromkeys(range(count))
refs = [0] * count
content = [None] * count
cached = {}
running = {}
for line in lines[1:]:
    if not line:
        continue
    words = line.split()
    if words[0] == "FINISH":
        for block in reversed(running.pop(words[1])):
            refs[block] -= 1
            if refs[block] == 0:
                free[block] = None
        continue
    name, prompt = words[1], words[2:]
    # every block, the partial one too, keyed by the tokens from the start to its end
    keys = [tuple(prompt[: (i + 1) * size]) for i in range(-(-len(prompt) // size))]
    hits = 0
    while hits < len(keys) and keys[hits] in cached:
        hits += 1
    if hits == len(keys):
        hits -= 1  # something must be computed
    blocks = []
    for key in keys[:hits]:
        block = cached[key]
        if refs[block] == 0:
            del free[block]
        refs[block] += 1
        blocks.append(block)
    evicted = 0
    for key in keys[hits:]:
        block, _ = free.popitem(last=False)
        if content[block] is not None:
            del cached[content[block]]
            content[block] = None
            evicted += 1
        refs[block] = 1
        blocks.append(block)
        if key not in cached:
            cached[key] = block
            content[block] = key
    running[name] = blocks
    computed = len(prompt) - hits * size
    print(
        f"{name}: hit {hits} blocks, computed {computed} tokens, evicted {evicted} blocks,"
        f" uses {' '.join(map(str, blocks))}"
    )
