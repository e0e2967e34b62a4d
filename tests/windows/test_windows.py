"""grade as a Windows student and teacher use it: the installed wheel, its commands, its verdicts.

Run by a Windows CPython (``.ci/windows``: Wine's, on this Linux machine) against the wheel
installed in it, never the checkout: ``python -m pytest -c tests/windows/pytest.ini tests/windows``.
Self-contained (no conftest): the fixture course is copied from ``tests/data/course``, and the
verdicts expected are the ones the Linux suite sees for the same scripts.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "win32", reason="Windows CPython only")

TESTS = Path(__file__).resolve().parent.parent
COURSE = TESTS / "data" / "course"


def grade(
    *args: str, cwd: Path, stdin: str = "", root: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``grade ARGS``; ``root``: ``--root`` after the command word (``check`` by default)."""
    if root is not None:
        command, *rest = args if args[0] in ("run", "batch", "check") else ("check", *args)
        args = (command, "--root", str(root), *rest)
    return subprocess.run(
        [sys.executable, "-m", "grader", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
    )


@pytest.fixture
def course(tmp_path: Path) -> Path:
    """The fixture course where a Windows user keeps files: a space and accents in its path,
    and case files as a checkout with core.autocrlf writes them."""
    where = tmp_path / "José Núñez" / "my course"
    shutil.copytree(COURSE, where)
    for case in (where / "cases").rglob("*.in"):
        case.write_bytes(case.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    return where


def script(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_installed_wheel_is_what_runs(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import grader; print(grader.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert "site-packages" in done.stdout, done.stdout


def test_list_and_show(tmp_path: Path) -> None:
    listed = grade("list", cwd=tmp_path)
    assert listed.returncode == 0 and "quantize" in listed.stdout, listed.stderr
    shown = grade("show", "quantize", cwd=tmp_path)
    assert shown.returncode == 0 and "Group-wise absmax" in shown.stdout, shown.stderr


@pytest.mark.parametrize(
    ("solution", "code", "verdicts"),
    [
        ("solution.py", 0, ["passed", "passed", "passed", "passed"]),
        ("wrong/drops_last_number.py", 1, ["wrong_answer"] * 4),
        ("wrong/crashes_on_negative.py", 1, ["passed", "runtime_error", "passed", "passed"]),
    ],
)
def test_verdicts_and_exit_codes_are_linuxs(
    course: Path, solution: str, code: int, verdicts: list[str]
) -> None:
    path = course / "reference" / "add" / solution
    done = grade("add", str(path), "--format", "json", cwd=course.parent, root=course)
    assert done.returncode == code, done.stderr
    report = json.loads(done.stdout)
    assert [c["status"] for c in report["cases"]] == verdicts
    assert "Traceback" not in done.stderr
    notices = [line for line in done.stderr.splitlines() if "not isolated" in line]
    assert notices == [
        "grade: on Windows, runs are limited in time, memory, processes and output but not "
        "isolated from your files; fine for practice, CI grades on Linux"
    ]


def test_an_endless_loop_times_out_and_leaves_nothing_behind(course: Path) -> None:
    import psutil

    pids = course.parent / "pids.txt"
    loop = script(
        course.parent,
        "loop.py",
        "import os, subprocess, sys\n"
        "child = subprocess.Popen([sys.executable, '-c', 'while True: pass'])\n"
        f"open({str(pids)!r}, 'a').write(f'{{os.getpid()}} {{child.pid}}\\n')\n"
        "while True: pass\n",
    )
    started = time.monotonic()
    done = grade(
        "add",
        str(loop),
        "--timeout",
        "2",
        "-x",
        "--format",
        "json",
        cwd=course.parent,
        root=course,
    )
    took = time.monotonic() - started
    assert done.returncode == 1, done.stderr
    first = json.loads(done.stdout)["cases"][0]
    assert first["status"] == "timeout", (json.dumps(first), done.stderr)
    assert float(first["time_s"]) < 2 * 2
    assert took < 60
    left = [int(p) for p in pids.read_text().split()]
    assert left and not [
        p for p in left if psutil.pid_exists(p) and psutil.Process(p).status() != "zombie"
    ]


def test_pythons_own_start_is_not_the_scripts_time(course: Path) -> None:
    """Python's start (slow under Wine, or a laptop's antivirus) took a short limit whole: a
    correct solution's compile check said "does not compile"."""
    solution = course / "reference" / "add" / "solution.py"
    done = grade("add", str(solution), "--timeout", "0.3", cwd=course.parent, root=course)
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_output_flood_is_output_limit(course: Path) -> None:
    flood = script(course.parent, "flood.py", "while True:\n    print('x' * 100)\n")
    done = grade("add", str(flood), "-x", "--format", "json", cwd=course.parent, root=course)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["cases"][0]["status"] == "output_limit"


def test_print_writes_what_it_writes_on_linux(course: Path) -> None:
    """Windows' print ends lines with \\r\\n: a run shows and is judged on \\n, as on Linux."""
    solution = course / "reference" / "add" / "solution.py"
    done = grade("run", "add", str(solution), cwd=course.parent, root=course, stdin="2 3\n")
    assert done.returncode == 0, done.stderr
    assert "5" in done.stdout and "\\x0d" not in done.stdout


def test_batch_and_merge(course: Path) -> None:
    klass = course.parent / "class"
    for student, solution in [("ana", "solution.py"), ("bo", "wrong/drops_last_number.py")]:
        (klass / student).mkdir(parents=True)
        shutil.copy(course / "reference" / "add" / solution, klass / student / "solution.py")
    for shard in ("1/2", "2/2"):
        done = grade(
            "batch",
            "add",
            str(klass),
            "--json",
            f"s{shard[0]}.json",
            "--shard",
            shard,
            cwd=course.parent,
            root=course,
        )
        assert done.returncode == 0, done.stderr
    merged = grade(
        "merge",
        "-o",
        "all.json",
        "s1.json",
        "s2.json",
        "--csv",
        "all.csv",
        cwd=course.parent,
    )
    assert merged.returncode == 0, merged.stderr
    rows = (course.parent / "all.csv").read_text(encoding="utf-8").splitlines()
    assert [r.split(",")[1] for r in rows[1:]] == ["1.0000", "0.0000"]


def test_a_teacher_makes_a_course_on_windows(tmp_path: Path) -> None:
    made = grade("init", "course", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    course = tmp_path / "course"
    for step in (
        ["new", "doubling"],
        ["add-case", "doubling", "big", "--random", "3"],
        ["regen", "doubling"],
        ["verify", "doubling"],
    ):
        done = grade(*step, cwd=course)
        assert done.returncode == 0, (step, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
    site = grade("site", str(tmp_path / "site"), cwd=course)
    assert site.returncode == 0, site.stderr
    assert (tmp_path / "site" / "index.html").is_file()


def test_peak_memory_is_the_runs_from_the_job_object(course: Path) -> None:
    """Issue 36: a case's peak memory on Windows comes from its Job Object (PeakJobMemoryUsed):
    a run holding 200 MiB reports within 20% of it, as on Linux."""
    held = script(
        course,
        "held.py",
        "import sys\n"
        "held = bytearray(200 << 20)\n"
        "for i in range(0, len(held), 4096):\n"
        "    held[i] = 1\n"
        "print(sum(int(x) for x in sys.stdin.readline().split()))\n",
    )
    done = grade("add", str(held), "--format", "json", "-k", "01", cwd=course, root=course)
    report = json.loads(done.stdout)
    (case,) = report["cases"]
    assert case["status"] == "passed", done.stderr
    if _under_wine():  # Wine keeps no job accounting (its CPU figures are the process's own)
        assert case["peak_memory_mb"] is None, case  # nothing said rather than a wrong figure
    else:
        assert 0.8 * 210 <= case["peak_memory_mb"] <= 1.2 * 210, case  # 200 MiB: 210 MB


def _under_wine() -> bool:
    import ctypes

    try:
        return hasattr(ctypes.windll.ntdll, "wine_get_version")  # type: ignore[attr-defined]
    except OSError:
        return False
