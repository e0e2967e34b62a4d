"""Print what grade costs over plain runs, as ratios measured in this one run (machines are noisy).

    python benchmarks/overhead.py

1. `grade --help` vs `python -c "import click"`: start-up (numpy must never be imported).
2. The runner vs a bare `subprocess.run` of the same reference on the same cases, one at a time.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from grader.grading import exercise_cases
from grader.resources import find_root
from grader.sandbox import run
from grader.spec import load_exercise

REPEAT = 5


def best_of(command: list[str], *, stdin: bytes = b"") -> float:
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        subprocess.run(command, input=stdin, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    grade = str(Path(sys.executable).with_name("grade"))
    help_s = best_of([grade, "--help"])
    click_s = best_of([sys.executable, "-c", "import click"])
    print(
        f"startup: grade --help {help_s * 1000:.0f} ms, import click {click_s * 1000:.0f} ms, "
        f"ratio {help_s / click_s:.2f}"
    )
    exercise = load_exercise("quantize", find_root(environ={}))
    assert exercise.reference is not None
    argv = [sys.executable, str(exercise.reference)]
    ratios = []
    for case in exercise_cases(exercise):
        bare = best_of(argv, stdin=case.input)
        runs = []
        for _ in range(REPEAT):
            start = time.perf_counter()
            run(argv, stdin=case.input, limits=exercise.limits)
            runs.append(time.perf_counter() - start)
        ratios.append(min(runs) / bare)
        print(f"  {case.name:<28} bare {bare * 1000:6.1f} ms  runner {min(runs) * 1000:6.1f} ms")
    print(f"runner/bare per case: median {statistics.median(ratios):.2f}, max {max(ratios):.2f}")


if __name__ == "__main__":
    main()
