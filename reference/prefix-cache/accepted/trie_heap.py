"""Accepted: the cached blocks form a trie (a node per block, its children keyed by their B
tokens), and the free queue is a heap of (time freed, block) with stale entries skipped."""

import heapq
import sys


class Node:
    __slots__ = ("block", "children", "key", "parent")

    def __init__(self, parent, key):
        self.children = {}
        self.parent = parent
        self.key = key
        self.block = None  # the physical block it is cached in, None once evicted


def main():
    text = sys.stdin.read().split("\n")
    size, count = map(int, text[0].split())
    root = Node(None, None)
    heap = [(t - count, block) for t, block in enumerate(range(count))]  # before any FINISH
    freed_at = [t - count for t in range(count)]  # the time of a block's live heap entry
    in_queue = [True] * count
    refs = [0] * count
    node_of = [None] * count
    running = {}
    time = 0
    out = []
    for line in text[1:]:
        if not line:
            continue
        words = line.split(" ")
        if words[0] == "FINISH":
            for block in reversed(running.pop(words[1])):
                refs[block] -= 1
                if refs[block] == 0:
                    time += 1
                    freed_at[block] = time
                    in_queue[block] = True
                    heapq.heappush(heap, (time, block))
            continue
        name, tokens = words[1], words[2:]
        full = len(tokens) // size
        keys = [tuple(tokens[i * size : (i + 1) * size]) for i in range(full)]
        path, node = [], root  # the trie nodes of the hits
        for key in keys:
            child = node.children.get(key)
            if child is None or child.block is None:
                break
            path.append(child)
            node = child
        if len(path) == full and full * size == len(tokens) and full:
            path.pop()
        blocks = []
        for hit in path:
            block = hit.block
            if refs[block] == 0:
                in_queue[block] = False
            refs[block] += 1
            blocks.append(block)
        evicted = 0
        total = (len(tokens) + size - 1) // size
        while len(blocks) < total:
            when, block = heapq.heappop(heap)
            if not in_queue[block] or when != freed_at[block]:
                continue  # stale
            in_queue[block] = False
            old = node_of[block]
            if old is not None:
                old.block = None
                node_of[block] = None
                evicted += 1
            refs[block] = 1
            blocks.append(block)
        node = path[-1] if path else root
        for i in range(len(path), full):
            child = node.children.get(keys[i])
            if child is None:
                child = node.children[keys[i]] = Node(node, keys[i])
            if child.block is None:
                child.block = blocks[i]
                node_of[blocks[i]] = child
            node = child
        running[name] = blocks
        h = len(path)
        out.append(
            f"{name}: hit {h} blocks, computed {len(tokens) - h * size} tokens, "
            f"evicted {evicted} blocks, uses " + " ".join(str(b) for b in blocks)
        )
    print("\n".join(out))


main()
