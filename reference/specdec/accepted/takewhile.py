"""Accepted: itertools.takewhile over pairs, and the statistics kept in a list."""

import sys
from itertools import takewhile

added_per_round = []
for text in sys.stdin.read().splitlines():
    if not text.strip():
        continue
    draft_part, target_part = text.split("|")
    draft = draft_part.split()[1:]
    target = target_part.split()[1:]
    accepted = [d for d, _ in takewhile(lambda pair: pair[0] == pair[1], zip(draft, target))]
    tokens = accepted + [target[len(accepted)]]
    added_per_round.append(len(tokens))
    print(f"round {len(added_per_round)}: +{len(tokens)} tokens: " + " ".join(tokens))
total, rounds = sum(added_per_round), len(added_per_round)
print(f"{total} tokens in {rounds} target passes ({total / rounds:.2f} per pass)")
