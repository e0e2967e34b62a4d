"""Accepted: as a student might write it with plain lists: the free queue is a list and a
read position, a block's live entry remembered by its index (older entries are skipped); the
cache is a dict keyed by strings "parent's number:the block's tokens", a number per key."""

import sys

lines = sys.stdin.read().split("\n")
B, N = [int(x) for x in lines[0].split()]
queue = list(range(N))
position = list(range(N))  # index of the block's live entry in queue, or -1
head = 0
refcount = [0] * N
key_of = [None] * N
cache = {}
number = {}  # key -> its number, for the keys of the blocks after it
owner = {}
for line in lines[1:]:
    if line == "":
        continue
    fields = line.split(" ")
    if fields[0] == "FINISH":
        mine = owner.pop(fields[1])
        mine.reverse()
        for blk in mine:
            refcount[blk] = refcount[blk] - 1
            if refcount[blk] == 0:
                position[blk] = len(queue)
                queue.append(blk)
        continue
    rid = fields[1]
    toks = fields[2:]
    L = len(toks)
    keys = []
    parent = -1
    for i in range(L // B):
        key = str(parent) + ":" + " ".join(toks[i * B : i * B + B])
        if key not in number:
            number[key] = len(number)
        parent = number[key]
        keys.append(key)
    hits = 0
    for k in keys:
        if k in cache:
            hits = hits + 1
        else:
            break
    if L % B == 0 and hits == len(keys):
        hits = hits - 1
    mine = []
    for k in keys[:hits]:
        blk = cache[k]
        if refcount[blk] == 0:
            position[blk] = -1
        refcount[blk] = refcount[blk] + 1
        mine.append(blk)
    evicted = 0
    blocks_needed = (L + B - 1) // B
    while len(mine) < blocks_needed:
        blk = queue[head]
        head = head + 1
        if position[blk] != head - 1:
            continue
        position[blk] = -1
        if key_of[blk] is not None:
            del cache[key_of[blk]]
            key_of[blk] = None
            evicted = evicted + 1
        refcount[blk] = 1
        mine.append(blk)
    for i in range(hits, len(keys)):
        if keys[i] not in cache:
            cache[keys[i]] = mine[i]
            key_of[mine[i]] = keys[i]
    owner[rid] = mine
    print(
        rid
        + ": hit "
        + str(hits)
        + " blocks, computed "
        + str(L - hits * B)
        + " tokens, evicted "
        + str(evicted)
        + " blocks, uses "
        + " ".join(str(b) for b in mine)
    )
