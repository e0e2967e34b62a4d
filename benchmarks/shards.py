"""A class graded in 1, 2 and 4 shards at once on this machine (the shards' processes side by
side, as a CI matrix's jobs would be on one runner), then merged: the wall time of each, as a
ratio of one shard's, measured in this one run. The class is SIZE copies of the shipped
quantize solutions (right and known-wrong), graded on the public cases.

    python benchmarks/shards.py [--size 300] [--shards 1 2 4]

On a machine of C cores, N shards side by side cannot beat one batch that already keeps every
core busy (--jobs defaults to the core count): the ratio says what sharding costs or saves
*here*; on N runners of their own, the wall time falls by up to N.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent


def make_class(folder: Path, size: int) -> None:
    material = PROJECT / "reference" / "quantize"
    scripts = [material / "solution.py", *sorted((material / "wrong").glob("*.py"))]
    for i in range(size):
        student = folder / f"student-{i:03d}"
        student.mkdir(parents=True)
        shutil.copy(scripts[i % len(scripts)], student / "quantize.py")


def grade(args: list[str], cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "grader", *args], cwd=cwd, stdout=subprocess.DEVNULL
    )


def sharded(room: Path, cases: Path, work: Path, count: int) -> float:
    started = time.monotonic()
    jobs = [
        grade(
            [
                "batch",
                "quantize",
                str(room),
                "--cases",
                str(cases),
                "--shard",
                f"{k}/{count}",
                "--json",
                str(work / f"shard-{k}.json"),
            ],
            work,
        )
        for k in range(1, count + 1)
    ]
    if any(job.wait() != 0 for job in jobs):
        raise SystemExit("a shard failed")
    shards = [str(work / f"shard-{k}.json") for k in range(1, count + 1)]
    if grade(["merge", "-o", str(work / f"merged-{count}.json"), *shards], work).wait() != 0:
        raise SystemExit("the merge failed")
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=300)
    parser.add_argument("--shards", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="grade-shards-") as tmp:
        work = Path(tmp)
        make_class(work / "class", args.size)
        cases = PROJECT / "cases" / "quantize" / "public"
        times = {n: sharded(work / "class", cases, work, n) for n in args.shards}
    base = times[args.shards[0]]
    print(f"{args.size} submissions, public quantize cases, {args.shards[0]} shard = 1.00")
    for n, wall in times.items():
        print(f"{n} shard(s) side by side: {wall:6.1f} s  ratio {wall / base:.2f}")


if __name__ == "__main__":
    main()
