"""Accept a kv-pages input (exit 0) or reject it with the reason on stderr (exit 1).

The contract: line 1 is ``B N``, then one event per line, fields separated by single spaces,
no blank line (the last line may end with a newline or not). The validator simulates the block
manager (the statement's rules) to check that FORK and FINISH name a running sequence.
"""

import re
import sys
from collections import deque

MAX_EVENTS = 2_000  # the statement's bounds
MAX_BLOCK = 64
MAX_BLOCKS = 200
MAX_SEQUENCES = 30
NUMBER = re.compile(r"[1-9][0-9]*")
NAME = re.compile(r"[A-Za-z0-9_]{1,8}")


class Manager:
    """The statement's block manager; ``step`` returns the names preempted, in order, and
    records in ``seen`` what the inputs exercise (for the clause predicates below)."""

    def __init__(self, size: int, count: int) -> None:
        self.size, self.count = size, count
        self.refs = [0] * count
        self.fill = [0] * count
        self.free = list(range(count))
        self.tokens: dict[str, int] = {}
        self.prompt: dict[str, int] = {}
        self.table: dict[str, list[int]] = {}
        self.waiting: deque[str] = deque()
        self.running: list[str] = []
        self.names: set[str] = set()
        self.seen: set[str] = set()

    def blocks(self, name: str) -> int:
        return -(-self.tokens[name] // self.size)

    def add(self, name: str, prompt: int) -> None:
        self.names.add(name)
        self.tokens[name] = self.prompt[name] = prompt
        self.waiting.append(name)

    def fork(self, parent: str, child: str) -> None:
        self.names.add(child)
        self.tokens[child] = self.prompt[child] = self.tokens[parent]
        self.table[child] = list(self.table[parent])
        for block in self.table[child]:
            self.refs[block] += 1
        self.running.append(child)
        self.seen.add("fork_full" if self.tokens[child] % self.size == 0 else "fork_partial")

    def release(self, name: str) -> None:
        for block in self.table.pop(name):
            self.refs[block] -= 1
            if self.refs[block] == 0:
                self.free.append(block)

    def finish(self, name: str) -> None:
        self.release(name)
        self.running.remove(name)

    def take(self, n: int) -> int:
        block = self.free.pop()
        self.refs[block], self.fill[block] = 1, n
        return block

    def step(self) -> list[str]:
        seen, size = self.seen, self.size
        while self.waiting and self.blocks(self.waiting[0]) <= len(self.free):
            name = self.waiting.popleft()
            if self.blocks(name) > -(-self.prompt[name] // size):
                seen.add("readmit_more")
            length = self.tokens[name]
            self.table[name] = [self.take(min(size, length - i)) for i in range(0, length, size)]
            self.running.append(name)
        if any(self.blocks(later) <= len(self.free) for later in list(self.waiting)[1:]):
            seen.add("no_jump")  # admission stopped at the head, and a later one would fit
        preempted: list[str] = []
        i = 0
        while i < len(self.running):
            name = self.running[i]
            need, cascade, first = "", 0, None
            while True:
                last = self.table[name][-1]
                need = (
                    "new"
                    if self.tokens[name] % size == 0
                    else ("copy" if self.refs[last] > 1 else "")
                )
                first = need if first is None else first
                if not need or self.free:
                    break
                victim = self.running.pop()
                if any(self.refs[b] > 1 for b in self.table[victim]):
                    seen.add("preempt_shared")
                self.release(victim)
                self.waiting.appendleft(victim)
                preempted.append(victim)
                cascade += 1
                if victim == name:
                    seen.add("self_preempt")
                    break
            if first == "copy" and not need:
                seen.add("shared_no_more")  # a preempted sharer left the block to S alone
            if cascade >= 2:
                seen.add("cascade")
            if i >= len(self.running):
                break
            if need == "new":
                seen.add("new_block")
                if self.refs[last] > 1:
                    seen.add("full_shared_write")
                self.table[name].append(self.take(1))
            elif need == "copy":
                seen.add("copy_on_write")
                self.refs[last] -= 1
                self.table[name][-1] = self.take(self.fill[last] + 1)
            else:
                self.fill[last] += 1
            self.tokens[name] += 1
            i += 1
        if preempted:
            seen.add("preempt")
        used = set()
        for name in self.running:
            blocks = self.table[name]
            if len(set(blocks) & used) or any(self.refs[b] > 1 for b in blocks):
                seen.add("shared_at_step")
            used.update(blocks)
        if not self.running:
            seen.add("none_running")
        return preempted


def _number(word: str, low: int, high: int) -> int | None:
    if NUMBER.fullmatch(word) is None or not low <= int(word) <= high:
        return None
    return int(word)


def parse(text: str) -> tuple[int, int, list[list[str]]]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    first = lines[0].split(" ")
    return int(first[0]), int(first[1]), [line.split(" ") for line in lines[1:]]


def problem(text: str) -> str | None:
    """Why ``text`` is not a valid input, or None."""
    if "\r" in text or "\t" in text:
        return "only spaces and LF newlines are allowed"
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if not lines:
        return "the input is empty"
    first = lines[0].split(" ")
    if len(first) != 2:
        return "line 1: expected 'B N'"
    size, count = _number(first[0], 1, MAX_BLOCK), _number(first[1], 1, MAX_BLOCKS)
    if size is None:
        return f"line 1: B must be a whole number from 1 to {MAX_BLOCK}"
    if count is None:
        return f"line 1: N must be a whole number from 1 to {MAX_BLOCKS:,}"
    events = lines[1:]
    if not 1 <= len(events) <= MAX_EVENTS:
        return f"1 to {MAX_EVENTS:,} events after line 1, got {len(events):,}"
    manager = Manager(size, count)
    for number, line in enumerate(events, start=2):
        words = line.split(" ")
        kind = words[0]
        if line == "STEP":
            manager.step()
            continue
        if (kind == "ADD" and len(words) == 3) or (kind == "FORK" and len(words) == 3):
            name = words[1] if kind == "ADD" else words[2]
            if NAME.fullmatch(name) is None:
                return f"line {number}: id {name!r} must be 1 to 8 letters, digits or '_'"
            if name in manager.names:
                return f"line {number}: id {name!r} was used before"
            if len(manager.names) >= MAX_SEQUENCES:
                return f"line {number}: at most {MAX_SEQUENCES} sequences in all (ADD and FORK)"
            if kind == "ADD":
                prompt = _number(words[2], 1, size * count)
                if prompt is None:
                    return f"line {number}: P must be a whole number from 1 to B*N = {size * count}"
                manager.add(name, prompt)
            else:
                if words[1] not in manager.running:
                    return f"line {number}: FORK {words[1]}: no running sequence {words[1]!r}"
                manager.fork(words[1], name)
            continue
        if kind == "FINISH" and len(words) == 2:
            if words[1] not in manager.running:
                return f"line {number}: FINISH {words[1]}: no running sequence {words[1]!r}"
            manager.finish(words[1])
            continue
        return f"line {number}: expected 'ADD id P', 'STEP', 'FORK parent child' or 'FINISH id'"
    return None


# What a case exercises, for the statement's clauses (clauses: in exercises/kv-pages.yaml):
# each is true of a valid input that exercises its clause.


def simulate(text: str) -> Manager:
    size, count, events = parse(text)
    manager = Manager(size, count)
    for words in events:
        if words[0] == "ADD":
            manager.add(words[1], int(words[2]))
        elif words[0] == "FORK":
            manager.fork(words[1], words[2])
        elif words[0] == "FINISH":
            manager.finish(words[1])
        else:
            manager.step()
    return manager


def _seen(text: str, key: str) -> bool:
    return key in simulate(text).seen


def new_block_at_multiple(text: str) -> bool:
    """A sequence whose tokens fill its last block exactly generates a token."""
    return _seen(text, "new_block")


def later_does_not_jump(text: str) -> bool:
    """At an admission, a later waiting request would fit while the head does not."""
    return _seen(text, "no_jump")


def preemption(text: str) -> bool:
    return _seen(text, "preempt")


def preemption_cascade(text: str) -> bool:
    """One sequence's need preempts two sequences or more."""
    return _seen(text, "cascade")


def preempts_itself(text: str) -> bool:
    return _seen(text, "self_preempt")


def readmitted_with_generated(text: str) -> bool:
    """A re-admission needing more blocks than the sequence's prompt alone."""
    return _seen(text, "readmit_more")


def fork_partial_block(text: str) -> bool:
    return _seen(text, "fork_partial")


def fork_full_block(text: str) -> bool:
    return _seen(text, "fork_full")


def copy_on_write(text: str) -> bool:
    return _seen(text, "copy_on_write")


def full_shared_block_written(text: str) -> bool:
    """A sequence whose full last block is shared generates a token (a new block, no copy)."""
    return _seen(text, "full_shared_write")


def preempts_a_sharer(text: str) -> bool:
    return _seen(text, "preempt_shared")


def no_longer_shared(text: str) -> bool:
    """A sequence needing a copy of its shared last block preempts the one sharing it, and
    then writes in place."""
    return _seen(text, "shared_no_more")


def block_size_one(text: str) -> bool:
    return parse(text)[0] == 1


def nothing_running(text: str) -> bool:
    return _seen(text, "none_running")


def no_final_newline(text: str) -> bool:
    """The last line ends without a newline, which the statement allows."""
    return not text.endswith("\n")


if __name__ == "__main__":
    why = problem(sys.stdin.read())
    if why:
        sys.exit(why)
