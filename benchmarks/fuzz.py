"""--fuzz on every shipped known-wrong solution (must find a disagreement and shrink it) and on
every accepted solution (must find none), with the figures of this one run.

    python benchmarks/fuzz.py [--count 200] [--accepted-count 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from grader.model.material import material
from grader.model.resources import find_root
from grader.model.spec import exercise_names, load_exercise
from grader.running.plan import prepare
from grader.running.submissions import check_submission
from grader.teacher.fuzz import fuzz


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--accepted-count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    root = find_root(Path(__file__).resolve().parent.parent, environ={})
    for name in exercise_names(root):
        exercise = load_exercise(name, root)
        plan = prepare(exercise)
        teacher = material(exercise)
        for wrong in teacher.wrong_solutions():
            start = time.perf_counter()
            found = fuzz(
                plan,
                teacher,
                check_submission(wrong.path),
                count=args.count,
                seed=args.seed,
            )
            spent = time.perf_counter() - start
            if found.finding is None:
                print(f"{name}/{wrong.path.stem}: NOT FOUND in {args.count} inputs ({spent:.1f} s)")
                continue
            text = found.finding.case.input.decode(errors="replace")
            units = sum(len(line.split()) for line in text.splitlines())
            print(
                f"{name}/{wrong.path.stem}: input {found.tried}, "
                f"shrunk in {found.shrink_runs} runs "
                f"to {len(text.splitlines())} lines, {units} tokens ({spent:.1f} s)"
            )
        for accepted in teacher.accepted_solutions():
            start = time.perf_counter()
            found = fuzz(
                plan,
                teacher,
                check_submission(accepted),
                count=args.accepted_count,
                seed=args.seed,
            )
            spent = time.perf_counter() - start
            finding = found.finding
            verdict = (
                "no disagreement" if finding is None else f"DISAGREES on {finding.case.input!r}"
            )
            print(
                f"{name}/accepted/{accepted.stem}: {args.accepted_count} inputs, {verdict} "
                f"({spent:.1f} s)"
            )


if __name__ == "__main__":
    main()
