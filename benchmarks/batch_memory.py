"""The grader's peak memory grading a class of flooding students: 1, 4 and 16 submissions that
each print 4 MB on stdout and 4 MB on stderr on every case (the output cap's size), graded by
``grade batch`` in a process of its own; its peak resident size (``ru_maxrss``), and each as a
ratio of one student's, measured in this one run. Flat is the goal: the grader holds what is in
flight, never the class.

    python benchmarks/batch_memory.py [--sizes 1 4 16]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
COURSE = PROJECT / "tests" / "data" / "course"
FLOOD = 'import sys\nsys.stdout.write("x" * (4 << 20))\nsys.stderr.write("y" * (4 << 20))\n'
# the grader in a process of its own, which says its own peak once the batch is written
GRADER = """
import json, resource, sys
from grader.cli import cli
try:
    cli.main(sys.argv[1:], prog_name="grade")
except SystemExit:
    pass
print(json.dumps(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss), file=sys.stderr)
"""


def peak_kib(size: int, work: Path) -> int:
    room = work / f"class-{size}"
    room.mkdir()
    for i in range(size):
        (room / f"s{i:02d}.py").write_text(FLOOD)
    args = ["batch", "add", str(room), "--json", str(work / f"{size}.json"), "--root", str(COURSE)]
    done = subprocess.run(
        [sys.executable, "-c", GRADER, *args], capture_output=True, text=True, check=False
    )
    return int(json.loads(done.stderr.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 4, 16])
    sizes = parser.parse_args().sizes
    with tempfile.TemporaryDirectory() as folder:
        peaks = {size: peak_kib(size, Path(folder)) for size in sizes}
    first = peaks[sizes[0]]
    for size, kib in peaks.items():
        print(f"{size:3d} flooding students: peak {kib / 1024:6.1f} MiB ({kib / first:.2f}x)")


if __name__ == "__main__":
    main()
