"""Accept a prefix-cache input (exit 0) or reject it with the reason on stderr (exit 1).

The contract: line 1 is ``B N``, then one event per line, fields separated by single spaces,
no blank line (the last line may end with a newline or not). The validator simulates the cache
(the statement's rules, as the reference applies them) to check the promise that an ADD
always finds enough blocks in the free queue.
"""

import re
import sys
from collections import OrderedDict

MAX_EVENTS = 10_000  # the statement's bounds
MAX_PROMPT = 100
MAX_BLOCK = 64
MAX_BLOCKS = 100_000
MAX_TOKEN = 1_000_000
NUMBER = re.compile(r"0|[1-9][0-9]*")
NAME = re.compile(r"[A-Za-z0-9_]{1,16}")


class Cache:
    """The statement's block pool, step by step; ``add`` returns what the ADD line reports."""

    def __init__(self, size: int, count: int) -> None:
        self.size, self.count = size, count
        self.free: OrderedDict[int, None] = OrderedDict.fromkeys(range(count))
        self.refs = [0] * count
        self.content: list[int | None] = [None] * count
        self.cached: dict[int, int] = {}  # identity -> the block cached under it
        self.numbers: dict[tuple[int, tuple[str, ...]], int] = {}  # (parent, tokens) -> identity
        self.running: dict[str, list[int]] = {}
        self.finished: set[str] = set()
        self.used: set[int] = set()  # blocks ever taken from the free queue
        self.seen: list[dict] = []  # per ADD, what it exercises (see add)
        self.freed_together = 0  # the most blocks one FINISH put in the free queue

    def identities(self, prompt: list[str]) -> list[int]:
        """Each full block's identity, a number for (its parent's identity, its tokens): the
        same number for the same tokens from the start of the prompt to the block's end."""
        found, parent = [], -1
        for i in range(len(prompt) // self.size):
            key = (parent, tuple(prompt[i * self.size : (i + 1) * self.size]))
            parent = self.numbers.setdefault(key, len(self.numbers))
            found.append(parent)
        return found

    def lookup(self, prompt: list[str]) -> tuple[int, int]:
        """(hits, blocks still to allocate), before the ADD changes anything."""
        found = self.identities(prompt)
        hits = 0
        while hits < len(found) and found[hits] in self.cached:
            hits += 1
        if found and hits == len(found) and hits * self.size == len(prompt):
            hits -= 1
        return hits, -(-len(prompt) // self.size) - hits

    def available(self, prompt: list[str]) -> int:
        """Blocks the free queue would hold once this prompt's hits left it."""
        hits, _ = self.lookup(prompt)
        found = self.identities(prompt)[:hits]
        return len(self.free) - sum(1 for i in found if self.refs[self.cached[i]] == 0)

    def add(self, name: str, prompt: list[str]) -> tuple[int, int, int, list[int]]:
        found = self.identities(prompt)
        hits, needed = self.lookup(prompt)
        seen = {  # what this ADD exercises, for the clause predicates below
            "blocks": len(found),
            "hits": hits,
            "partial": len(prompt) % self.size != 0,
            "full_hit": bool(found)
            and hits < len(found)
            and found[-1] in self.cached
            and all(i in self.cached for i in found),
            "hit_free": 0,
            "hit_shared": 0,
            "reused_uncached": 0,
            "duplicate": False,
            "cached_after_miss": any(i in self.cached for i in found[hits + 1 :]),
        }
        blocks = []
        for identity in found[:hits]:
            block = self.cached[identity]
            if self.refs[block] == 0:
                del self.free[block]
                seen["hit_free"] += 1
            else:
                seen["hit_shared"] += 1
            self.refs[block] += 1
            blocks.append(block)
        evicted = 0
        for _ in range(needed):
            block, _ = self.free.popitem(last=False)
            old = self.content[block]
            if old is not None:
                del self.cached[old]
                self.content[block] = None
                evicted += 1
            elif block in self.used:
                seen["reused_uncached"] += 1
            self.used.add(block)
            self.refs[block] = 1
            blocks.append(block)
        for i in range(hits, len(found)):
            if found[i] not in self.cached:
                self.cached[found[i]] = blocks[i]
                self.content[blocks[i]] = found[i]
            else:
                seen["duplicate"] = True
        self.running[name] = blocks
        seen["evicted"] = evicted
        self.seen.append(seen)
        return hits, len(prompt) - hits * self.size, evicted, blocks

    def finish(self, name: str) -> None:
        freed = 0
        for block in reversed(self.running.pop(name)):
            self.refs[block] -= 1
            if self.refs[block] == 0:
                self.free[block] = None
                freed += 1
        self.freed_together = max(self.freed_together, freed)
        self.finished.add(name)


def _number(text: str, low: int, high: int) -> int | None:
    if NUMBER.fullmatch(text) is None:
        return None
    value = int(text)
    return value if low <= value <= high else None


def parse(text: str) -> tuple[int, int, list[list[str]]]:
    """``(B, N, events)`` of a text that is at least shaped like an input (for predicates)."""
    lines = text.split("\n")
    size, count = (int(x) for x in lines[0].split())
    return size, count, [line.split(" ") for line in lines[1:] if line]


def problem(text: str) -> str | None:
    if not text:
        return "the input is empty"
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the newline at the end of the last line
    first = lines[0].split(" ")
    if len(first) != 2:
        return "line 1: expected 'B N'"
    size = _number(first[0], 1, MAX_BLOCK)
    count = _number(first[1], 1, MAX_BLOCKS)
    if size is None:
        return f"line 1: B must be a whole number from 1 to {MAX_BLOCK}, got {first[0]!r}"
    if count is None:
        return f"line 1: N must be a whole number from 1 to {MAX_BLOCKS:,}, got {first[1]!r}"
    events = lines[1:]
    if not events:
        return "no events: at least one line after 'B N' is needed"
    if len(events) > MAX_EVENTS:
        return f"at most {MAX_EVENTS:,} events, got {len(events):,}"
    cache = Cache(size, count)
    for number, line in enumerate(events, start=2):
        words = line.split(" ")
        if words[0] == "FINISH" and len(words) == 2:
            name = words[1]
            if name not in cache.running:
                return f"line {number}: FINISH {name}: no running request {name!r}"
            cache.finish(name)
            continue
        if words[0] != "ADD" or len(words) < 3:
            return f"line {number}: expected 'ADD id t1 ... tk' or 'FINISH id'"
        name, prompt = words[1], words[2:]
        if NAME.fullmatch(name) is None:
            return f"line {number}: id {name!r} must be 1 to 16 letters, digits or '_'"
        if name in cache.running or name in cache.finished:
            return f"line {number}: id {name!r} was added before"
        if len(prompt) > MAX_PROMPT:
            return f"line {number}: at most {MAX_PROMPT} tokens in a prompt, got {len(prompt)}"
        for token in prompt:
            if _number(token, 0, MAX_TOKEN) is None:
                return (
                    f"line {number}: token {token!r} is not a whole number from 0 to "
                    f"{MAX_TOKEN:,} written without leading zeros"
                )
        _, needed = cache.lookup(prompt)
        if needed > cache.available(prompt):
            return (
                f"line {number}: ADD {name} needs {needed} blocks, the free queue holds "
                f"{cache.available(prompt)}"
            )
        cache.add(name, prompt)
    return None


# What a case exercises, for the statement's clauses (clauses: in exercises/prefix-cache.yaml):
# each is true of a valid input that exercises its clause. The spec lists the cases by name
# (cases:), found with these: see tests/test_clause_predicates.py before naming them in holds:.


def simulate(text: str) -> Cache:
    size, count, events = parse(text)
    cache = Cache(size, count)
    for words in events:
        if words[0] == "FINISH":
            cache.finish(words[1])
        else:
            cache.add(words[1], words[2:])
    return cache


def _any(text: str, key: str) -> bool:
    return any(seen[key] for seen in simulate(text).seen)


def same_tokens_elsewhere(text: str) -> bool:
    """A full block whose B tokens were seen before at another position or after another
    prefix: a hit only for a solution that forgets the prefix."""
    size, _, events = parse(text)
    where: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    for words in events:
        prompt = words[2:] if words[0] == "ADD" else []
        for i in range(len(prompt) // size):
            tokens = tuple(prompt[i * size : (i + 1) * size])
            where.setdefault(tokens, set()).add(tuple(prompt[: i * size]))
    return any(len(prefixes) > 1 for prefixes in where.values())


def partial_block(text: str) -> bool:
    return _any(text, "partial")


def hit_then_miss(text: str) -> bool:
    return any(0 < s["hits"] < s["blocks"] for s in simulate(text).seen)


def hit_in_free_queue(text: str) -> bool:
    return _any(text, "hit_free")


def hit_shared(text: str) -> bool:
    return _any(text, "hit_shared")


def full_hit(text: str) -> bool:
    return _any(text, "full_hit")


def eviction(text: str) -> bool:
    return _any(text, "evicted")


def reused_uncached(text: str) -> bool:
    return _any(text, "reused_uncached")


def duplicate_not_cached(text: str) -> bool:
    return _any(text, "duplicate")


def freed_in_reverse(text: str) -> bool:
    """A FINISH putting two blocks or more in the free queue at once."""
    return simulate(text).freed_together >= 2


def cached_after_miss(text: str) -> bool:
    """A block after the first miss that is cached (never, if the rules hold: see the notes)."""
    return _any(text, "cached_after_miss")


def block_size_at_a_bound(text: str) -> bool:
    return parse(text)[0] in (1, MAX_BLOCK)


def pool_at_a_bound(text: str) -> bool:
    return parse(text)[1] in (1, MAX_BLOCKS)


def fewest_or_most_events(text: str) -> bool:
    return len(parse(text)[2]) in (1, MAX_EVENTS)


def prompt_at_a_bound(text: str) -> bool:
    return any(len(w) - 2 in (1, MAX_PROMPT) for w in parse(text)[2] if w[0] == "ADD")


def token_at_a_bound(text: str) -> bool:
    return any({"0", str(MAX_TOKEN)} & set(w[2:]) for w in parse(text)[2] if w[0] == "ADD")


def left_running(text: str) -> bool:
    return bool(simulate(text).running)


def a_count_of_one(text: str) -> bool:
    """An ADD line with a 1 before "blocks" or "tokens" (the words stay plural)."""
    cache = simulate(text)
    size, _, events = parse(text)
    adds = [w for w in events if w[0] == "ADD"]
    return any(
        1 in (s["hits"], s["evicted"], len(w) - 2 - s["hits"] * size)
        for s, w in zip(cache.seen, adds, strict=True)
    )


def no_final_newline(text: str) -> bool:
    """The last line ends without a newline, which the statement allows."""
    return not text.endswith("\n")


if __name__ == "__main__":
    why = problem(sys.stdin.read())
    if why:
        sys.exit(why)
