"""Known wrong: writes '1 target pass' for one round; the statement says passes.

expect: wrong_answer
"""

import sys


def main() -> None:
    total = rounds = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        left, right = line.split("|")
        draft = left.split()[1:]  # drop "draft:"
        target = right.split()[1:]  # drop "target:"
        accepted = 0
        while accepted < len(draft) and draft[accepted] == target[accepted]:
            accepted += 1
        tokens = [*draft[:accepted], target[accepted]]
        rounds += 1
        total += len(tokens)
        print(f"round {rounds}: +{len(tokens)} tokens: {' '.join(tokens)}")
    word = "pass" if rounds == 1 else "passes"
    print(f"{total} tokens in {rounds} target {word} ({total / rounds:.2f} per pass)")


main()
