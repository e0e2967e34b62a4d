"""Known wrong: splits the line on ':', which a token may hold.

expect: wrong_answer
"""

import sys


def main() -> None:
    total = rounds = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        parts = line.split(":")
        draft = parts[1].split("|")[0].split()
        target = parts[2].split()
        accepted = 0
        while accepted < len(draft) and draft[accepted] == target[accepted]:
            accepted += 1
        tokens = [*draft[:accepted], target[accepted]]
        rounds += 1
        total += len(tokens)
        print(f"round {rounds}: +{len(tokens)} tokens: {' '.join(tokens)}")
    print(f"{total} tokens in {rounds} target passes ({total / rounds:.2f} per pass)")


main()
