"""Accepted: vLLM's shape. A block's hash chains its parent's hash with its tokens, and the
free queue is a doubly linked list over block numbers (O(1) removal from the middle)."""

import sys

HEAD = -1  # the sentinel: nxt[HEAD] is the queue's head, prv[HEAD] its tail


class FreeQueue:
    def __init__(self, n: int) -> None:
        self.nxt = {HEAD: 0 if n else HEAD}
        self.prv = {HEAD: n - 1 if n else HEAD}
        for block in range(n):
            self.prv[block] = block - 1 if block else HEAD
            self.nxt[block] = block + 1 if block + 1 < n else HEAD
        self.members = set(range(n))

    def remove(self, block: int) -> None:
        p, q = self.prv[block], self.nxt[block]
        self.nxt[p], self.prv[q] = q, p
        self.members.discard(block)

    def pop_head(self) -> int:
        block = self.nxt[HEAD]
        self.remove(block)
        return block

    def append(self, block: int) -> None:
        last = self.prv[HEAD]
        self.nxt[last], self.prv[block], self.nxt[block], self.prv[HEAD] = block, last, HEAD, block
        self.members.add(block)


def block_hashes(tokens: list[int], size: int) -> list[int]:
    hashes, parent = [], 0
    for start in range(0, len(tokens) - size + 1, size):
        parent = hash((parent, *tokens[start : start + size]))
        hashes.append(parent)
    return hashes


def main() -> None:
    lines = iter(sys.stdin.read().splitlines())
    size, n = map(int, next(lines).split())
    queue = FreeQueue(n)
    ref_cnt = [0] * n
    block_hash = [None] * n
    by_hash = {}
    tables = {}
    for line in lines:
        if not line.strip():
            continue
        kind, rid, *rest = line.split()
        if kind == "FINISH":
            for block in reversed(tables.pop(rid)):
                ref_cnt[block] -= 1
                if not ref_cnt[block]:
                    queue.append(block)
            continue
        tokens = list(map(int, rest))
        hashes = block_hashes(tokens, size)
        computed_blocks = []
        for h in hashes:
            if h not in by_hash:
                break
            computed_blocks.append(by_hash[h])
        # at most len(tokens) - 1 tokens may come from the cache
        while computed_blocks and len(computed_blocks) * size > len(tokens) - 1:
            computed_blocks.pop()
        for block in computed_blocks:
            if block in queue.members:
                queue.remove(block)
            ref_cnt[block] += 1
        table = list(computed_blocks)
        evicted = 0
        while len(table) * size < len(tokens):
            block = queue.pop_head()
            if block_hash[block] is not None:
                del by_hash[block_hash[block]]
                block_hash[block] = None
                evicted += 1
            ref_cnt[block] += 1
            table.append(block)
        for i in range(len(computed_blocks), len(hashes)):
            if hashes[i] not in by_hash:
                by_hash[hashes[i]] = table[i]
                block_hash[table[i]] = hashes[i]
        tables[rid] = table
        hit = len(computed_blocks)
        sys.stdout.write(
            f"{rid}: hit {hit} blocks, computed {len(tokens) - hit * size} tokens, "
            f"evicted {evicted} blocks, uses {' '.join(map(str, table))}\n"
        )


main()
