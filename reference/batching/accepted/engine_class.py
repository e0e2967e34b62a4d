"""Accepted: a class-based engine, one method per boundary and one per iteration."""

import sys
from dataclasses import dataclass
from fractions import Fraction


@dataclass
class Request:
    rid: int
    arrival: int
    prompt: int
    output: int
    tokens: int = 0
    first: int = -1
    finish: int = -1


class Engine:
    def __init__(self, mode: str, base: int, per_token: int, per_seq: int, cap: int) -> None:
        self.continuous = mode == "continuous"
        self.base, self.per_token, self.per_seq, self.cap = base, per_token, per_seq, cap
        self.now = 0
        self.running: list[Request] = []

    def boundary(self, queue: list[Request], start: int) -> tuple[list[Request], int]:
        """Finished requests have left already; admit from queue[start:] (sorted)."""
        joined: list[Request] = []
        if self.continuous or not self.running:
            while (
                start < len(queue)
                and queue[start].arrival <= self.now
                and len(self.running) + len(joined) < self.cap
            ):
                joined.append(queue[start])
                start += 1
        return joined, start

    def iterate(self, joined: list[Request]) -> None:
        cost = self.base + self.per_token * sum(r.prompt for r in joined)
        cost += self.per_seq * len(self.running)
        self.now += cost
        for r in self.running + joined:
            r.tokens += 1
            if r.tokens == 1:
                r.first = self.now
            if r.tokens == r.output:
                r.finish = self.now
        self.running = [r for r in self.running + joined if r.tokens < r.output]

    def run(self, requests: list[Request]) -> None:
        queue = sorted(requests, key=lambda r: (r.arrival, r.rid))
        start = 0
        while start < len(queue) or self.running:
            if not self.running and queue[start].arrival > self.now:
                self.now = queue[start].arrival  # idle
            joined, start = self.boundary(queue, start)
            self.iterate(joined)


def main() -> None:
    lines = sys.stdin.read().splitlines()
    mode, *numbers = lines[0].split()
    engine = Engine(mode, *map(int, numbers))
    requests = [Request(*map(int, line.split())) for line in lines[1:] if line]
    engine.run(requests)
    for r in requests:
        print(f"{r.rid}: first {r.first} finish {r.finish}")
    print("makespan", max(r.finish for r in requests))
    mean = Fraction(sum(r.first - r.arrival for r in requests), len(requests))
    print("mean ttft", mean)


main()
