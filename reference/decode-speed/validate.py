"""Accept a decode-speed input (exit 0) or reject it with the reason on stderr (exit 1)."""

import re
import sys

POSITIVE = re.compile(r"(\d+\.?\d*|\.\d+)")


def problem(text: str) -> str | None:
    setups = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        fields = line.split()
        if len(fields) != 5:
            return f"line {number}: expected NAME PARAMS BYTES_PER_PARAM BANDWIDTH_GBPS BATCH"
        _, *numbers, batch = fields
        for value in numbers:
            if not POSITIVE.fullmatch(value) or float(value) <= 0:
                return f"line {number}: {value!r} is not a decimal number > 0"
        if not re.fullmatch(r"[1-9]\d*", batch):
            return f"line {number}: BATCH must be a whole number >= 1, got {batch!r}"
        setups += 1
    return None if setups else "no setups: at least one non-blank line is needed"


if __name__ == "__main__":
    why = problem(sys.stdin.read())
    if why:
        sys.exit(why)
