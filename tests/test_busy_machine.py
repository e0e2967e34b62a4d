"""A class graded while a CPU hog of four times this machine's CPUs runs beside it (a shared CI
runner, a laptop compiling something): a spinning program is a time-out by its CPU time, a
correct one that computes slowly passes, and no run is the grader's error; on the Linux
sandbox and on the portable runner. The rules themselves are table tests on a synthetic clock
(test_timing.py, test_portable.py); this is the real scheduler, so it is a slow test."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import TESTS

from grader.sandbox import portable
from grader.sandbox.cpus import usable_cpus

pytestmark = pytest.mark.slow

COURSE = TESTS / "data" / "course"
SOLUTION = COURSE / "reference" / "add" / "solution.py"
HOG = "import sys\nsys.stdout.write('up\\n')\nsys.stdout.flush()\nwhile True:\n    pass\n"
SPINS = "import sys\nsys.stdin.read()\nwhile True:\n    pass\n"
# correct, after 0.4 s of CPU: at a fifth of a CPU, 2 s on the clock against a 1 s limit
SLOW = (
    "import sys, time\n"
    "numbers = sys.stdin.read().split()\n"
    "while time.process_time() < 0.4:\n"
    "    pass\n"
    "print(sum(int(x) for x in numbers))\n"
)


@pytest.fixture
def hog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """Four spinning processes per CPU this process may use, each up before the test goes on.
    One hog at a time on the machine: the two runners' tests on two xdist workers made it
    eight per CPU, past what the portable runner can tell from sleeping (CI, stop 43)."""
    count = 4 * usable_cpus()
    # the base temp folder's parent is shared by every worker of this session
    lock = (tmp_path_factory.getbasetemp().parent / "busy-machine.lock").open("w")
    fcntl.flock(lock, fcntl.LOCK_EX)  # waits for the other worker's hog to end
    hogs = [
        subprocess.Popen([sys.executable, "-c", HOG], stdout=subprocess.PIPE) for _ in range(count)
    ]
    try:
        for one in hogs:
            assert one.stdout is not None and one.stdout.readline() == b"up\n"
        yield count
    finally:
        for one in hogs:
            one.kill()
            one.wait()
            assert one.stdout is not None
            one.stdout.close()
        lock.close()  # and with it the lock


@pytest.mark.parametrize("runner", ["linux", "portable"])
def test_a_class_on_a_busy_machine_gets_the_verdicts_of_a_quiet_one(
    hog: int, tmp_path: Path, runner: str
) -> None:
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    (course / "grade.toml").write_text("timeout = 1\n")  # each run: 1 s of its own time
    room = tmp_path / "class"
    room.mkdir()
    for name, text in {
        "loop1.py": SPINS,
        "loop2.py": SPINS,
        "slow.py": SLOW,
        "right1.py": SOLUTION.read_text(),
        "right2.py": SOLUTION.read_text(),
    }.items():
        (room / name).write_text(text)
    book = tmp_path / "book.json"
    env = {**os.environ, "NO_COLOR": "1"}
    if runner == "portable":
        env[portable.PORTABLE_ENV] = "1"
    args = ["batch", "add", str(room), "--json", str(book), "--jobs", "2", "--root", str(course)]
    done = subprocess.run(
        [sys.executable, "-m", "grader", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = json.loads(book.read_text())["submissions"]
    verdicts = {row["submission"]: [c["status"] for c in row["report"]["cases"]] for row in rows}
    said = {row["submission"]: [c.get("message") for c in row["report"]["cases"]] for row in rows}
    assert set(verdicts) == {"loop1", "loop2", "slow", "right1", "right2"}, verdicts
    for name, statuses in verdicts.items():
        expected = "timeout" if name.startswith("loop") else "passed"
        assert statuses == [expected] * len(statuses), (hog, name, statuses, said[name])
