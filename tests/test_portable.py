"""The portable runner (macOS, Windows; Linux with GRADE_PORTABLE=1), on this Linux machine: as
forced here, and under the macOS shim (``tests/shims.py``: no waitid, pidfd, unshare or /proc).
Windows itself is tried under Wine (``tests/windows/``, in .ci/run).

Real runs of real scripts: the limits it promises (wall time, CPU time, memory where the
platform has it, output), the whole process tree ended, the grader's exit and Ctrl-C obeyed,
and the same verdicts as the Linux sandbox gives.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import SCRIPTS, TESTS

from grader.judging.errors import InternalError
from grader.model.spec import Exercise
from grader.running.grading import grade
from grader.running.plan import prepare
from grader.sandbox import (
    LimitHit,
    Limits,
    RunResult,
    Sandbox,
    SandboxMode,
    SandboxUnavailable,
    portable,
    runfolder,
    treewatch,
)

PYTHON = sys.executable
# loaded before the macOS shim says "darwin", under which psutil would look for its macOS half
with contextlib.suppress(ImportError):
    import psutil  # noqa: F401
# the test's own, which the macOS shim takes from the grader (None on a real macOS)
_pidfd_open = getattr(os, "pidfd_open", None)


@pytest.fixture(params=["forced", "macos"])
def box(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Sandbox]:
    """A portable sandbox, as GRADE_PORTABLE=1 gives it on Linux, or under the macOS shim."""
    yield from _portable(request.param, monkeypatch)


# The tests that wait out a time limit: their macOS variant runs in CI's slow pass, which keeps
# the default suite within its 45 s (the same runner, the same limits, as "forced" here).
@pytest.fixture(params=["forced", pytest.param("macos", marks=pytest.mark.slow)])
def timed_box(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Sandbox]:
    yield from _portable(request.param, monkeypatch)


def _portable(kind: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Sandbox]:
    if kind == "forced":
        monkeypatch.setenv(portable.PORTABLE_ENV, "1")
    else:
        from grader.sandbox import procfs

        for name in ("waitid", "pidfd_open", "unshare", "setns"):
            monkeypatch.delattr(os, name, raising=False)
        monkeypatch.delattr(signal, "pidfd_send_signal", raising=False)
        monkeypatch.setattr(procfs, "PROC", "/nonexistent-proc")
        monkeypatch.setattr(sys, "platform", "darwin")
    sandbox = Sandbox.create(SandboxMode.AUTO)
    assert sandbox.portable
    yield sandbox
    sandbox.close()


@pytest.fixture
def forced(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sandbox]:
    """The portable sandbox as GRADE_PORTABLE=1 gives it (where the macOS shim changes
    nothing a test looks at)."""
    monkeypatch.setenv(portable.PORTABLE_ENV, "1")
    sandbox = Sandbox.create(SandboxMode.AUTO)
    yield sandbox
    sandbox.close()


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def gone(pid: int, within_s: float = 10.0) -> bool:
    """Whether ``pid`` ends within ``within_s`` (waited on its pidfd: a kill is delivered at
    once, but the process takes a moment to go). A zombie has ended: only its parent's wait
    is missing."""
    if _pidfd_open is None:  # a real macOS (the forge's CI): ask until the bound
        deadline = time.monotonic() + within_s
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return True
            time.sleep(0.05)
        return False
    try:
        fd = _pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        if poller.poll(int(within_s * 1000)):
            return True
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    finally:
        os.close(fd)


def fifo(tmp_path: Path) -> Path:
    """A named pipe a run writes to: the test waits on it, never on a clock."""
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


def test_a_correct_and_a_wrong_solution_get_the_linux_sandboxs_verdicts(
    add: Exercise, sandbox: Sandbox, forced: Sandbox
) -> None:
    solutions = [add.root.path / "reference" / "add" / "solution.py"]
    solutions += sorted((add.root.path / "reference" / "add" / "wrong").glob("*.py"))
    assert len(solutions) >= 2
    for path in solutions:
        verdicts = []
        for runner in (forced, sandbox):
            report = grade(prepare(add, sandbox=runner), path)
            verdicts.append([(c.case.name, c.verdict, c.message) for c in report.outcomes])
        assert verdicts[0] == verdicts[1], path.name


def test_stdin_args_and_files_reach_the_run(box: Sandbox, tmp_path: Path) -> None:
    script = write(
        tmp_path,
        "echo.py",
        "import sys, os\n"
        "print(sys.stdin.read().upper(), sys.argv[1:], open('given').read(), end='')\n"
        "print('', os.getcwd() != os.path.dirname(os.path.abspath(sys.argv[0])))\n",
    )
    result = box.run(
        [PYTHON, str(script), "a", "b c"],
        stdin="héllo\n".encode(),
        limits=Limits(),
        files={"given": b"file"},
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.decode() == "HÉLLO\n ['a', 'b c'] file True\n"


def test_an_endless_loop_times_out_on_time_and_leaves_no_process(
    timed_box: Sandbox, tmp_path: Path
) -> None:
    box = timed_box
    script = write(
        tmp_path,
        "forks_and_loops.py",
        "import subprocess, sys, os\n"
        "child = subprocess.Popen([sys.executable, '-c', 'while True: pass'])\n"
        "print(os.getpid(), child.pid, file=sys.stderr, flush=True)\n"
        "while True: pass\n",
    )
    result = box.run([PYTHON, str(script)], stdin=b"", limits=Limits(time_s=0.5))
    # ended by its limit (no wall-clock bound here: a loaded machine stretches any such bound)
    assert result.limit_hit in (LimitHit.WALL_TIME, LimitHit.CPU_TIME)
    pids = [int(p) for p in result.stderr.split()]
    assert len(pids) == 2 and all(gone(pid) for pid in pids)


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_a_cpu_time_limit_is_the_students_time_out(forced: Sandbox) -> None:
    """The child's RLIMIT_CPU (the same child under the macOS shim: once is enough)."""
    result = forced.run([PYTHON, str(SCRIPTS / "cpu_time_limit.py")], stdin=b"", limits=Limits())
    assert result.limit_hit is LimitHit.CPU_TIME


def test_an_output_flood_stops_at_the_cap(box: Sandbox) -> None:
    limits = Limits(output_kb=64)
    result = box.run([PYTHON, str(SCRIPTS / "flood_stdout.py")], stdin=b"", limits=limits)
    # stopped at the cap, not the clock: a run the clock ended would say WALL_TIME
    assert result.limit_hit is LimitHit.OUTPUT and result.over == "stdout"
    assert len(result.stdout) == 64 * 1024


def test_output_exactly_at_the_cap_is_not_over_it(box: Sandbox, tmp_path: Path) -> None:
    script = write(tmp_path, "exact.py", "import sys\nsys.stdout.write('x' * 65536)\n")
    result = box.run([PYTHON, str(script)], stdin=b"", limits=Limits(output_kb=64))
    assert result.limit_hit is None and len(result.stdout) == 65536


def test_a_child_left_holding_the_pipes_does_not_keep_the_run_waiting(
    box: Sandbox, tmp_path: Path
) -> None:
    script = write(
        tmp_path,
        "leaves_a_child.py",
        "import subprocess, sys\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        "print(child.pid)\n",
    )
    result = box.run([PYTHON, str(script)], stdin=b"", limits=Limits(time_s=20))
    assert result.exit_code == 0 and result.wall_s < 10
    assert gone(int(result.stdout))


def test_memory_is_limited_where_the_platform_can(box: Sandbox) -> None:
    if "memory" not in portable.enforced():
        pytest.skip(f"{portable.platform_name()}: the notice says memory is not limited")
    result = box.run([PYTHON, str(SCRIPTS / "alloc_4gb.py")], stdin=b"", limits=Limits())
    assert result.limit_hit is LimitHit.MEMORY


def test_ctrl_c_ends_the_runs_in_progress(box: Sandbox, tmp_path: Path) -> None:
    up = fifo(tmp_path)
    script = write(
        tmp_path, "sleeps.py", f"open({str(up)!r}, 'w').write('up')\nimport time\ntime.sleep(60)\n"
    )
    done: list[float] = []

    def run() -> None:
        started = time.monotonic()
        with contextlib.suppress(InternalError):
            box.run([PYTHON, str(script)], stdin=b"", limits=Limits(time_s=60))
        done.append(time.monotonic() - started)

    worker = threading.Thread(target=run)
    worker.start()
    assert up.read_text() == "up"  # the run is in progress
    box.cancel()
    worker.join(30)
    assert done and done[0] < 30


def test_a_grader_killed_takes_its_run_with_it(tmp_path: Path) -> None:
    """SIGKILL leaves the grader no say: the run's child sees the watch pipe close."""
    told = fifo(tmp_path)
    sleeper = write(
        tmp_path,
        "sleeper.py",
        f"import os, time\nopen({str(told)!r}, 'w').write(str(os.getpid()))\ntime.sleep(120)\n",
    )
    grader = subprocess.Popen(
        [
            PYTHON,
            "-c",
            "import sys\n"
            "from grader.sandbox import Limits, Sandbox\n"
            "box = Sandbox.create()\n"
            "box.run([sys.executable, sys.argv[1]], stdin=b'', limits=Limits(time_s=100))\n",
            str(sleeper),
        ],
        env={**os.environ, portable.PORTABLE_ENV: "1"},
        cwd=TESTS.parent,
    )
    try:
        run = int(told.read_text())
    finally:
        grader.kill()
        grader.wait()
    assert gone(run, within_s=30), "the run outlived its grader"


def test_a_run_that_never_started_is_the_graders_error(box: Sandbox, tmp_path: Path) -> None:
    not_python = tmp_path / "python"
    not_python.write_text("#!/bin/sh\necho hello\n")
    not_python.chmod(0o755)
    script = write(tmp_path, "ok.py", "print('hi')\n")
    with pytest.raises(InternalError, match="did not start"):
        box.run([str(not_python), str(script)], stdin=b"", limits=Limits())


def slow_python(tmp_path: Path, wait: str) -> Path:
    """An interpreter that takes ``wait`` (a shell command) to start: a Windows laptop's first
    Python start, or Wine's, under its antivirus or a busy machine."""
    slow = tmp_path / "slow-python"
    slow.write_text(f'#!/bin/sh\n{wait}\nexec {PYTHON} "$@"\n')
    slow.chmod(0o755)
    return slow


def test_the_clock_starts_when_the_script_does(forced: Sandbox, tmp_path: Path) -> None:
    """A slow start of the interpreter is the machine's, not the script's: it took the whole
    limit, and a correct solution on a busy Windows laptop got "no answer within 0.5 s" (and
    its compile check "does not compile")."""
    script = write(tmp_path, "ok.py", "print('hi')\n")
    python = slow_python(tmp_path, "sleep 0.6")
    result = forced.run([str(python), str(script)], stdin=b"", limits=Limits(time_s=0.5))
    assert (result.exit_code, result.stdout, result.limit_hit) == (0, b"hi\n", None)
    assert result.wall_s < 0.5


# An interpreter whose start burns CPU (a Windows laptop's, Wine's): 0.6 s of it, then Python
BURNING_START = """#!{python}
import os, sys, time
while time.process_time() < 0.6:
    pass
os.execv(sys.executable, [sys.executable, *sys.argv[1:]])
"""


def test_the_cpu_time_of_a_run_is_the_scripts_not_its_starts(
    forced: Sandbox, tmp_path: Path
) -> None:
    """The clock starts when the script does; its CPU time counted the start: a compile check
    that the machine kept waiting read as computing (more than half its limit), and a correct
    script as "does not compile" where it should have been asked again."""
    script = write(tmp_path, "ok.py", "print('hi')\n")
    python = tmp_path / "burning-python"
    python.write_text(BURNING_START.format(python=PYTHON))
    python.chmod(0o755)
    result = forced.run([str(python), str(script)], stdin=b"", limits=Limits(time_s=5))
    assert (result.exit_code, result.stdout) == (0, b"hi\n")
    assert result.cpu_s is not None and result.cpu_s < 0.3, result.cpu_s


def test_an_interpreter_that_never_comes_up_is_the_graders_error(
    forced: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(portable, "start_allowance_s", lambda limit_s: 0.3)
    python = slow_python(tmp_path, "sleep 60")
    script = write(tmp_path, "ok.py", "print('hi')\n")
    with pytest.raises(InternalError, match=r"not up within 0\.3 s"):
        forced.run([str(python), str(script)], stdin=b"", limits=Limits(time_s=0.2))


def test_a_student_cannot_forge_the_ready_byte(box: Sandbox, tmp_path: Path) -> None:
    """The byte is the child's, before the submission runs: what a script prints is its own."""
    script = write(tmp_path, "ready.py", "import os\nos.write(1, b'\\x06hi')\n")
    result = box.run([PYTHON, str(script)], stdin=b"", limits=Limits())
    assert result.stdout == b"\x06hi"


def test_the_notice_is_one_line_that_says_what_holds_and_what_does_not(box: Sandbox) -> None:
    said = box.notice()
    assert said is not None and "\n" not in said and len(said) < 200
    assert "not isolated" in said and "time" in said and "output" in said
    assert ("memory" in said) == ("memory" in portable.enforced())
    # the macOS shim has neither /proc nor psutil: it says what a busy machine may do
    assert ("busy machine" in said) == (not portable.live_cpu_known())


def test_strict_refuses_with_the_reason(box: Sandbox) -> None:
    with pytest.raises(SandboxUnavailable, match="cannot be isolated"):
        Sandbox.create(SandboxMode.STRICT)


def test_the_portable_cli_grades_and_says_so_once(tmp_path: Path) -> None:
    solution = TESTS / "data" / "course" / "reference" / "add" / "solution.py"
    done = subprocess.run(
        [PYTHON, "-m", "grader", "--root", str(TESTS / "data" / "course"), "add", str(solution)],
        capture_output=True,
        text=True,
        env={**os.environ, portable.PORTABLE_ENV: "1"},
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    notices = [line for line in done.stderr.splitlines() if "not isolated" in line]
    assert len(notices) == 1


# A grader as an ordinary user: a portable sandbox runs one script, whose output it prints. Its
# stdout is a pipe of that user's own making, as a terminal or a shell's pipe would be (the
# test's own pipe is root's, which the user could not open again anyway)
_PORTABLE_GRADER = """
import os, subprocess, sys
if sys.argv[2:] != ["inner"]:
    inner = subprocess.run([sys.executable, *sys.argv, "inner"], stdout=subprocess.PIPE, text=True)
    print(inner.stdout, end="")
    sys.exit(inner.returncode)
os.environ["GRADE_PORTABLE"] = "1"
from grader.sandbox import Limits, Sandbox, SandboxMode
box = Sandbox.create(SandboxMode.AUTO)
result = box.run([sys.executable, sys.argv[1]], stdin=b"", limits=Limits(time_s=10))
print("the run printed:", result.stdout.decode().strip())
"""
# ... and the script, which walks up to every ancestor and writes into its stdout if it can
_INTO_THE_GRADERS_STDOUT = """
import os
pid, reached = os.getppid(), []
while pid > 1:
    try:
        with open(f"/proc/{pid}/fd/1", "w") as out:
            out.write("::error::forged by the run\\n")
        reached.append(pid)
    except OSError:
        pass
    with open(f"/proc/{pid}/stat") as f:
        pid = int(f.read().rsplit(")", 1)[1].split()[1])
print("reached", reached)
"""


@pytest.mark.slow  # a process of its own, as an ordinary user
@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="no /proc here")
def test_a_portable_run_cannot_write_into_the_graders_stdout() -> None:
    """Issue 38, finding 4: the portable path left the grader dumpable, so a run of the same
    uid opened /proc/<grader>/fd/1 and wrote a raw CI command into the JSON report."""
    done = _as_an_ordinary_user(_PORTABLE_GRADER, _INTO_THE_GRADERS_STDOUT)
    assert "the run printed: reached []" in done.stdout, (done.stdout, done.stderr)
    assert "forged" not in done.stdout + done.stderr


# Loaded by path in the Linux sandbox's own child processes, or on Windows only
_LINUX_CHILD_OR_WINDOWS = {
    "grader.__main__",  # runs the CLI
    "grader.sandbox._child",
    "grader.sandbox._forkserver",
    "grader.sandbox.winjob",
}
_WALK = """
import importlib, pkgutil, sys
sys.path.insert(0, sys.argv[1])
import shims
shims.apply("windows")
import grader
skip = set(sys.argv[2:])
for info in pkgutil.walk_packages(grader.__path__, "grader."):
    if info.name not in skip:
        importlib.import_module(info.name)
print("imported")
"""


def test_every_module_imports_without_posix_only_modules() -> None:
    """Windows has no fcntl, resource, termios or pwd, no SIGHUP, no os.killpg: importing the
    grader must not reach for any of them (the first Windows crash was at import)."""
    done = subprocess.run(
        [PYTHON, "-c", _WALK, str(TESTS), *_LINUX_CHILD_OR_WINDOWS],
        capture_output=True,
        text=True,
        cwd=TESTS.parent,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "imported\n"


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["show", "quantize"],
        ["merge", "--help"],
        ["--version"],
    ],
)
def test_commands_that_run_nothing_work_without_posix(args: list[str], tmp_path: Path) -> None:
    done = subprocess.run(
        [PYTHON, str(TESTS / "shims.py"), "windows", *args],
        capture_output=True,
        text=True,
        cwd=TESTS.parent,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and done.stdout


def test_init_and_merge_work_without_posix(tmp_path: Path) -> None:
    done = subprocess.run(
        [PYTHON, str(TESTS / "shims.py"), "windows", "init", str(tmp_path / "course")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "course" / "grade.toml").is_file()


class _SyntheticRun:
    """A run on a synthetic clock: it gets ``share`` of a CPU and exits once it has computed
    ``needs_s`` (never, for None); ``wait`` advances the clock instead of sleeping. The platform
    reports ``burst`` seconds of CPU more than it used since its start (the interpreter's start,
    or Wine, whose process times barely grow after it). Where ``waits`` is known (Linux), it
    also says how long the run waited for a CPU: the rest of the wall time, if the run was
    runnable all along, else none (asleep)."""

    def __init__(
        self, share: float, needs_s: float | None, burst: float, waits: bool | None
    ) -> None:
        self.now, self.share, self.needs_s, self.burst = 100.0, share, needs_s, burst
        self.begun, self.waits = self.now, waits

    def cpu(self) -> float:
        return self.burst + (self.now - self.begun) * self.share

    def usage(self) -> tuple[float | None, float | None]:
        if self.waits is None:
            return self.cpu(), None
        runnable = (self.now - self.begun) * (1 - self.share)
        return self.cpu(), (runnable if self.waits else 0.0) + 0.3  # 0.3: its start's wait

    def wait(self, timeout: float) -> int | None:
        if self.needs_s is not None and self.share > 0:
            exits_at = self.begun + self.needs_s / self.share
            if exits_at <= self.now + max(0.0, timeout):
                self.now = exits_at
                return 0
        self.now += max(0.0, timeout)
        return None


@pytest.mark.parametrize(
    ("share", "needs_s", "status", "wall", "queued", "burst", "waits"),
    [
        (1.0, 0.5, 0, 0.5, 0.0, 0.0, None),  # an idle machine: in time
        # a fifth of a CPU: 2.5 s on the clock, 0.5 s of its own: in time
        (0.2, 0.5, 0, 2.5, 0.0, 0.0, None),
        (0.2, None, None, 5.0, 4.0, 0.0, None),  # spinning at a fifth: stopped at 1 s of CPU
        (0.05, None, None, 1.0, 0.0, 0.0, None),  # next to no CPU: sleeping, its limit stays
        (0.0, None, None, 1.0, 0.0, 0.0, None),
        (0.02, None, None, 1.0, 0.0, 0.0, None),  # below the share of a 4x-overloaded machine
        (0.11, 2.0, None, 1 / 0.11, 1 / 0.11 - 1, 0.0, None),  # stopped short of its 2 s
        # Wine: the start's CPU counted, then next to none however it spins: its limit stays
        (0.02, None, None, 1.0, 0.0, 0.9, None),
        (0.2, None, None, 5.0, 4.0, 0.9, None),  # the start's CPU is not its computing
        # Linux says how long it waited for a CPU: a run starved below the share still
        # computes (in time, or stopped at the cap for the grader to judge again); a sleeper
        # with a little CPU is held to its limit, its start's wait not counted
        (0.05, 0.3, 0, 6.0, 0.0, 0.0, True),
        (0.05, None, None, 10.0, 9.5, 0.0, True),
        (0.2, None, None, 5.0, 4.0, 0.0, True),
        (0.2, None, None, 1.0, 0.0, 0.0, False),
        (1.0, None, None, 1.0, 0.0, 0.0, True),  # a CPU all along: stopped at its limit
    ],
)
def test_a_portable_runs_clock_stretches_while_it_computes(
    monkeypatch: pytest.MonkeyPatch,
    share: float,
    needs_s: float | None,
    status: int | None,
    wall: float,
    queued: float,
    burst: float,
    waits: bool | None,
) -> None:
    """A run that computes, however slowly a loaded machine lets it, keeps its clock going
    until it has used its limit of CPU; one that sleeps is held to its limit. macOS and
    Windows tell a run's CPU time while it runs, never its wait for a CPU; Linux tells both."""
    run = _SyntheticRun(share, needs_s, burst, waits)
    monkeypatch.setattr(time, "monotonic", lambda: run.now)  # the module's clock is time's
    started = portable._Started(
        wait=run.wait,
        kill=lambda: None,
        cpu_s=run.cpu,
        usage_now=run.usage,
        close=lambda: None,
        stdout=None,  # type: ignore[arg-type]
        stderr=None,  # type: ignore[arg-type]
        start=run.begun,
        cpu_limited=lambda status: False,
    )
    got, kept = portable._wait_stretched(started, run.begun, 1.0)
    assert got == status
    assert kept == pytest.approx(queued, abs=0.05)  # its wait for a CPU, once it was stopped
    # stopped within 5 ms of CPU of its limit: at a share s, 0.005 / s of wall time
    assert run.now - run.begun == pytest.approx(wall, abs=0.05)


ALL = ("time", "memory", "processes", "output")


@pytest.mark.parametrize(
    ("platform", "watched", "name", "held", "opening"),
    [
        ("linux", True, "Linux", ALL, "with GRADE_PORTABLE=1, runs are limited"),
        ("linux", False, "Linux", ("time", "memory", "output"), "with GRADE_PORTABLE=1, runs"),
        ("win32", False, "Windows", ALL, "on Windows, runs are"),  # the Job Object, not a watch
        ("darwin", True, "macOS", ALL, "on macOS, runs are limited in time, memory"),
        ("darwin", False, "macOS", ("time", "output"), "on macOS, runs are limited in time and"),
        ("freebsd14", False, "freebsd14", ("time", "memory", "output"), "on freebsd14, runs are"),
    ],
)
def test_each_platform_says_what_its_runner_holds_a_run_to(
    monkeypatch: pytest.MonkeyPatch,
    platform: str,
    watched: bool,
    name: str,
    held: tuple[str, ...],
    opening: str,
) -> None:
    """The one line each platform says of itself, from a table (macOS has no machine here):
    where the run's tree can be watched (/proc, or psutil on macOS) its memory and processes are
    held in all."""
    monkeypatch.setattr(sys, "platform", platform)
    monkeypatch.setattr(
        treewatch, "default_look", lambda: treewatch.look_psutil if watched else None
    )
    assert (portable.platform_name(), portable.enforced()) == (name, held)
    assert portable.notice().startswith(opening)
    assert ", ".join(held[:-1]) + f" and {held[-1]} but not isolated" in portable.notice()


def test_a_portable_run_leaves_no_folder_and_counts_its_cpu(
    forced: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each run's folder (its copy of the script, its stdin, its work folder) goes with it,
    even one the script made unwritable; its CPU time is counted."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    script = write(
        tmp_path,
        "locks.py",
        "import os\nos.mkdir('kept')\nopen('kept/x', 'w').close()\nos.chmod('kept', 0)\n"
        "print(sum(range(10**6)))\n",
    )
    result = forced.run([PYTHON, str(script)], stdin=b"", limits=Limits(time_s=5.0))
    assert (result.exit_code, result.stdout) == (0, b"499999500000\n"), result.stderr
    assert list((tmp_path / "tmp").iterdir()) == []
    assert isinstance(result.cpu_s, float) and result.cpu_s >= 0.0


# Issue 38, finding 2: a grandchild in a session of its own, its descriptors closed, outlived the
# run (and the grader): the run's end now ends every process of its tree the watch saw
ESCAPES = """
import os, sys, time
r, w = os.pipe()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for fd in range(3, 256):
            if fd != w:
                try:
                    os.close(fd)
                except OSError:
                    pass
        os.write(w, str(os.getpid()).encode() + b" ")
        os.close(w)
        for fd in (0, 1, 2):
            os.close(fd)
        time.sleep(600)
    os.write(w, str(os.getpid()).encode() + b" ")
    time.sleep(600)
os.close(w)
pids = b""
while pids.count(b" ") < 2:
    pids += os.read(r, 64)
print(pids.decode(), flush=True)
while True:
    pass
"""


def test_a_process_in_a_session_of_its_own_ends_with_the_run(
    timed_box: Sandbox, tmp_path: Path
) -> None:
    box = timed_box
    script = write(tmp_path, "escapes.py", ESCAPES)
    # (the clock starts with the script: its forks and its line come first, however busy)
    result = box.run([PYTHON, str(script)], stdin=b"", limits=Limits(time_s=0.5))
    assert result.limit_hit in (LimitHit.WALL_TIME, LimitHit.CPU_TIME), result
    # the escapee holds stdout open and never ends: a grader that waited on it would wait on
    # after its time, beyond the wait for a CPU the machine's load gave it (queued_s)
    assert result.wall_s - result.queued_s < 10
    pids = [int(p) for p in result.stdout.split()]
    assert len(pids) == 2
    try:
        if treewatch.default_look() is None:  # the shim without psutil, a dependency on macOS
            assert not any(gone(pid, within_s=0.1) for pid in pids)  # the notice says so
        else:
            assert all(gone(pid) for pid in pids), pids
    finally:
        for pid in pids:  # whatever the watch did, this test leaves nothing behind
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


# Issue 38, finding 3: memory and processes across the tree, where the limits hold one process
HOLDERS = """
import mmap, os, sys
kind = sys.argv[1]
r, w = os.pipe()  # read by each process until the run ends: nobody writes to it
if kind == "shared":
    block = mmap.mmap(-1, 400 << 20)
    for at in range(0, len(block), 4096):
        block[at] = 1
else:
    for _ in range(int(sys.argv[2])):
        if os.fork() == 0:
            held = b"x" * (int(sys.argv[3]) << 20)
            os.read(r, 1)
            os._exit(0)
print("all held", flush=True)
os.read(r, 1)
"""


@pytest.mark.parametrize(
    ("args", "hit"),
    [
        (["shared"], LimitHit.MEMORY),  # a shared mapping, which RLIMIT_DATA does not count
        (["forks", "16", "20"], LimitHit.MEMORY),  # 16 children of 20 MB: 320 MB in all
        (["forks", "70", "1"], None),  # more processes than the runner's 64
    ],
)
def test_the_run_as_a_whole_is_held_to_its_limits(
    box: Sandbox, tmp_path: Path, args: list[str], hit: LimitHit | None
) -> None:
    if treewatch.default_look() is None:
        pytest.skip("no tree to watch without psutil (a dependency on macOS)")
    script = write(tmp_path, "holders.py", HOLDERS)
    limits = Limits(time_s=20, memory_mb=256)
    result = box.run([PYTHON, str(script), *args], stdin=b"", limits=limits)
    assert result.wall_s < 15, result  # stopped by the watch, not at its time limit
    assert result.limit_hit is hit, result
    if hit is None:
        assert b"more than 64 processes at once" in result.stderr, result.stderr[-300:]


# Red team of issue 38, J: descriptors the grader inherited (a CI wrapper's log, a caller's
# root-only file) were open in every run, as posix_spawn closes nothing
OPEN_DESCRIPTORS = """
import os, sys
def is_open(fd):
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True
print([fd for fd in map(int, sys.argv[1:]) if is_open(fd)])
"""


def test_a_run_gets_no_descriptor_the_grader_inherited(box: Sandbox, tmp_path: Path) -> None:
    script = write(tmp_path, "fds.py", OPEN_DESCRIPTORS)
    secret = write(tmp_path, "secret.txt", "the exam key\n")
    low = os.open(secret, os.O_RDONLY)
    high = os.dup2(low, 900)  # above the run's RLIMIT_NOFILE: still open if not closed
    try:
        os.set_inheritable(low, True)
        os.set_inheritable(high, True)
        result = box.run(
            [PYTHON, str(script), "0", "1", "2", str(low), str(high)], stdin=b"", limits=Limits()
        )
    finally:
        os.close(low)
        os.close(high)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == b"[0, 1, 2]\n"


# Red team of issue 38, A: the run's first process moved into the grader's own process group,
# where the run's kill (its group) missed it: the grader waited 60 s, called it its own error,
# then waited on it without a bound. Where a run leads a session of its own it cannot move
# there; where it leads a group only (a platform without POSIX_SPAWN_SETSID), it is killed by
# its pid as well as by its group
INTO_THE_GRADERS_GROUP = """
import os, sys, time
try:
    os.setpgid(0, os.getpgid(os.getppid()))
except OSError:
    pass
print(os.getpid(), os.getpgid(0) == os.getpgid(os.getppid()), flush=True)
time.sleep(90)
"""


@pytest.mark.parametrize("session", [True, False], ids=["own-session", "own-group"])
def test_a_run_that_joins_the_graders_group_still_times_out(
    timed_box: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, session: bool
) -> None:
    box = timed_box
    monkeypatch.setattr(portable, "_OWN_SESSION", session)
    script = write(tmp_path, "joins.py", INTO_THE_GRADERS_GROUP)
    result = box.run([PYTHON, str(script)], stdin=b"", limits=Limits(time_s=0.5))
    pid, joined = result.stdout.split()
    assert result.limit_hit is LimitHit.WALL_TIME, result
    assert joined == (b"False" if session else b"True")  # the session is what refuses the move
    assert gone(int(pid))


# Red team of issue 38, B: a double fork whose middle exits at once left its grandchild to init
# before the tree watch looked; in a session of its own it outlived the grader and rewrote its
# report. On Linux the grader is a child subreaper: the grandchild comes to it and is ended
DOUBLE_FORK = """
import os, time
r, w = os.pipe()
if os.fork() == 0:
    if os.fork() != 0:
        os._exit(0)  # the middle process: gone within a millisecond
    os.setsid()
    os.write(w, str(os.getpid()).encode())
    for fd in (0, 1, 2, w):
        os.close(fd)
    time.sleep(600)
os.close(w)
print(os.read(r, 64).decode(), flush=True)
"""


def test_a_double_fork_escapee_ends_with_the_run(box: Sandbox, tmp_path: Path) -> None:
    script = write(tmp_path, "double_fork.py", DOUBLE_FORK)
    result = box.run([PYTHON, str(script)], stdin=b"", limits=Limits(time_s=10))
    assert result.exit_code == 0, result
    if not result.stdout.strip():  # killed before it could say its pid: the grader saw it go
        assert sys.platform != "darwin"
        return
    escapee = int(result.stdout)
    try:
        if sys.platform == "darwin":  # the macOS shim: no subreaper there, the notice says so
            # (not whether it outlives the run: nothing promises that, and the tree watch, psutil's
            # every 20 ms, may see it in the moment before its middle process ends and end it
            # with the run; CI's 3.13 pass once found it gone where this test said it must live)
            assert "double fork" in (box.notice() or "")
        else:
            assert gone(escapee), "the escapee outlived its run"
            with pytest.raises(ChildProcessError):  # and the grader reaped it: no zombie left
                os.waitpid(escapee, os.WNOHANG)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(escapee, signal.SIGKILL)


# ... as the red team ran it: the escapee waits for the grader to exit, then rewrites the report
REWRITES_THE_REPORT = """
import json, os, sys, time
grader = os.getppid()
r, w = os.pipe()
if os.fork() == 0:
    if os.fork() != 0:
        os._exit(0)
    os.setsid()
    for fd in range(256):
        if fd != w:
            try:
                os.close(fd)
            except OSError:
                pass
    with open({marker!r}, "a") as f:
        f.write(f"{{os.getpid()}} ")
    os.close(w)  # the run answers once the escapee is out
    while os.path.exists(f"/proc/{{grader}}"):
        time.sleep(0.05)
    with open({report!r}) as f:
        report = json.load(f)
    report["passed"] = report["total"]
    with open({report!r}, "w") as f:
        json.dump(report, f)
    os._exit(0)
os.close(w)
os.read(r, 1)
print("not the answer")
"""


@pytest.mark.skipif(sys.platform != "linux", reason="a subreaper is Linux's")
def test_a_double_fork_escapee_cannot_rewrite_the_report(tmp_path: Path) -> None:
    marker, report = tmp_path / "escapees", tmp_path / "report.json"
    marker.touch()
    script = write(
        tmp_path,
        "escapee.py",
        REWRITES_THE_REPORT.format(marker=str(marker), report=str(report)),
    )
    course = TESTS / "data" / "course"
    args = ["--root", str(course), "add", str(script), "-k", "01", "--format", "json"]
    done = subprocess.run(
        [PYTHON, "-m", "grader", *args, "-o", str(report)],
        capture_output=True,
        text=True,
        env={**os.environ, portable.PORTABLE_ENV: "1"},
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stderr
    # an escapee that wrote no pid was killed before it could: the run answers once it did
    escapees = [int(pid) for pid in marker.read_text().split()]
    try:
        assert all(gone(pid) for pid in escapees), escapees
        assert '"passed": 0' in report.read_text()
    finally:
        for pid in escapees:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


# Red team of issue 38, C: memory files (memfd_create, /dev/shm) written and never mapped are
# neither in a process's PSS nor under RLIMIT_DATA: 1 GiB of them passed a 512 MB limit
MEMORY_FILES = """
import os, sys
block = b"x" * (1 << 20)
files = []
for i in range(12):  # 12 files of 32 MB: 384 MB, each under RLIMIT_FSIZE
    if sys.argv[1] == "memfd":
        fd = os.memfd_create(f"m{i}")
    else:
        fd = os.open(f"/dev/shm/grade-test-{os.getpid()}-{i}", os.O_CREAT | os.O_RDWR, 0o600)
        os.unlink(f"/dev/shm/grade-test-{os.getpid()}-{i}")
    for _ in range(32):
        os.write(fd, block)
    files.append(fd)
print("all held", flush=True)
r, w = os.pipe()
os.read(r, 1)  # nobody writes: held until the run ends
"""


@pytest.mark.parametrize("kind", ["memfd", "shm"])
def test_memory_in_memory_files_counts(forced: Sandbox, tmp_path: Path, kind: str) -> None:
    if kind == "shm" and not os.path.isdir("/dev/shm"):
        pytest.skip("no /dev/shm here")
    script = write(tmp_path, "memory_files.py", MEMORY_FILES)
    result = forced.run(
        [PYTHON, str(script), kind], stdin=b"", limits=Limits(time_s=10, memory_mb=256)
    )
    assert result.limit_hit is LimitHit.MEMORY, result


# ... and as an ordinary user, whose grader cannot read /proc of a process that made itself not
# dumpable: its memory (PSS and memory files alike) read as none
_HIDDEN_GRADER = """
import os, sys
os.environ["GRADE_PORTABLE"] = "1"
from grader.sandbox import Limits, Sandbox, SandboxMode
box = Sandbox.create(SandboxMode.AUTO)
limits = Limits(time_s=10, memory_mb=256)
result = box.run([sys.executable, sys.argv[1], "memfd"], stdin=b"", limits=limits)
print("the run's limit:", result.limit_hit and result.limit_hit.value)
print("it said:", result.stderr.decode().strip().splitlines()[-1])
"""
_NOT_DUMPABLE = "import ctypes\nctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0\n"


@pytest.mark.slow  # a process of its own, as an ordinary user
@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="no /proc here")
def test_a_run_that_hides_from_proc_is_over_its_memory_limit() -> None:
    done = _as_an_ordinary_user(_HIDDEN_GRADER, _NOT_DUMPABLE + MEMORY_FILES)
    assert "the run's limit: memory\n" in done.stdout
    # and why, in the run's own words (the review's: a limit with no reason)
    assert "it said: grade: a process of the run hid its memory from the grader" in done.stdout, (
        done.stdout,
        done.stderr,
    )


def _as_an_ordinary_user(grader_text: str, script_text: str) -> subprocess.CompletedProcess[str]:
    """``grader_text`` run as an ordinary user's program (``python parent.py s.py``, not
    grader.py: the package) on ``script_text``, the way a student's own grade runs: some
    attacks and defences show only where neither side is root."""
    from test_sandbox_findings import PROJECT, _system_python, _user

    ids = _user()
    python = _system_python()
    if ids is None or python is None:
        pytest.skip("no ordinary user, or no interpreter it can run, on this machine")
    scratch = Path(tempfile.mkdtemp(prefix="grade-as-user-"))
    try:
        scratch.chmod(0o755)
        script, grader = scratch / "s.py", scratch / "parent.py"
        script.write_text(script_text)
        grader.write_text(grader_text)
        return subprocess.run(
            [python, str(grader), str(script)],
            capture_output=True,
            text=True,
            user=ids[0],
            group=ids[1],
            extra_groups=[],
            cwd="/",
            env={"PATH": os.defpath, "PYTHONPATH": str(PROJECT), "HOME": "/", "TMPDIR": "/tmp"},
            timeout=120,
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="no /proc here")
def test_a_reaped_number_taken_by_a_new_run_stays_the_graders() -> None:
    """The review's race: a runner reaps its run, a second run is spawned under the freed pid,
    then the first runner says it reaped that pid: the new run's entry must stay, or the next
    sweep kills a legitimate run as an orphan."""
    from grader.sandbox import orphans

    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    )
    try:
        pid = orphans.spawn(lambda: child.pid)  # the new run, under the number
        orphans.reaped(pid)  # the first runner, late
        assert pid in orphans._own
    finally:
        child.communicate(b"")
    orphans.reaped(pid)  # gone now: let go
    assert pid not in orphans._own


# A child the script never waits for is in no rusage of the run's: only the tree watch saw it
HELD_BY_A_CHILD = """
import os, time
r, w = os.pipe()
if os.fork() == 0:
    held = b"\\x01" * (64 << 20)
    os.write(w, b"held")
    time.sleep(600)
os.read(r, 4)
print("held", flush=True)
time.sleep(600)
"""


def test_a_childs_memory_the_script_never_waited_for_is_the_runs_peak(
    forced: Sandbox, tmp_path: Path
) -> None:
    """The peak a report shows is the larger of the first process's rusage and what the tree
    watch saw the whole tree hold: here the watch's, 64 MiB the script's own rusage never had."""
    script = write(tmp_path, "child_holds.py", HELD_BY_A_CHILD)
    result = forced.run([PYTHON, str(script)], stdin=b"", limits=Limits(time_s=0.5))
    assert (result.stdout, result.limit_hit) == (b"held\n", LimitHit.WALL_TIME), result
    assert result.peak_bytes is not None and result.peak_bytes >= 64 << 20, result.peak_bytes


def test_a_run_gets_a_fresh_home_and_temporary_folder(box: Sandbox, tmp_path: Path) -> None:
    """Its own work folder is its cwd, its HOME and its TMPDIR, and it may write there."""
    script = write(
        tmp_path,
        "home.py",
        "import os, tempfile\n"
        "home = os.environ['HOME']\n"
        "with open(os.path.join(home, 'notes'), 'w') as f:\n"
        "    f.write('mine')\n"
        "print(home == os.environ['TMPDIR'] == os.getcwd() == tempfile.gettempdir())\n",
    )
    result = box.run([PYTHON, str(script)], stdin=b"", limits=Limits())
    assert (result.exit_code, result.stdout) == (0, b"True\n"), result.stderr


@pytest.mark.parametrize("session", [True, False], ids=["own-session", "own-group"])
def test_a_run_started_by_a_worker_thread_can_be_signalled(
    box: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, session: bool
) -> None:
    """The grader's worker threads block SIGINT and SIGTERM: a run must not inherit that, or a
    script's own terminate() of its child, or its SIGTERM to itself, did nothing."""
    script = write(
        tmp_path,
        "terminates.py",
        "import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\nprint('still here')\n",
    )
    monkeypatch.setattr(portable, "_OWN_SESSION", session)
    done: list[RunResult] = []

    def worker() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        done.append(box.run([PYTHON, str(script)], stdin=b"", limits=Limits()))

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert (done[0].stdout, done[0].signal) == (b"", signal.SIGTERM), done[0]


@pytest.mark.parametrize("session", [True, False], ids=["own-session", "own-group"])
def test_a_run_of_a_grader_that_ignores_sigterm_can_still_be_signalled(
    box: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, session: bool
) -> None:
    """A grader started in a script's background, or under nohup, ignores some signals, and an
    ignored signal stays ignored across exec: a run gets each back to its default."""
    script = write(
        tmp_path,
        "terminates.py",
        "import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\nprint('still here')\n",
    )
    monkeypatch.setattr(portable, "_OWN_SESSION", session)
    before = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        result = box.run([PYTHON, str(script)], stdin=b"", limits=Limits())
    finally:
        signal.signal(signal.SIGTERM, before)
    assert (result.stdout, result.signal) == (b"", signal.SIGTERM), result


def test_an_error_stream_flood_stops_at_the_cap_and_says_which(
    box: Sandbox, tmp_path: Path
) -> None:
    script = write(
        tmp_path, "flood_stderr.py", "import sys\nwhile True:\n    sys.stderr.write('x' * 4096)\n"
    )
    result = box.run([PYTHON, str(script)], stdin=b"", limits=Limits(output_kb=64))
    assert (result.limit_hit, result.over) == (LimitHit.OUTPUT, "stderr"), result
    assert result.stderr == b"x" * (64 * 1024)


def test_the_ready_byte_is_only_stdouts(box: Sandbox, tmp_path: Path) -> None:
    """What a script writes to stderr first, the child's ready byte or not, is its own."""
    script = write(tmp_path, "ready_err.py", "import os\nos.write(2, b'\\x06err')\n")
    result = box.run([PYTHON, str(script)], stdin=b"", limits=Limits())
    assert (result.exit_code, result.stderr) == (0, b"\x06err"), result


def test_where_posix_spawn_cannot_start_a_session_a_run_leads_a_group(
    forced: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """macOS before 10.15 has no POSIX_SPAWN_SETSID: the run leads a process group of its own
    instead, and is still ended on time."""
    spawn = os.posix_spawn

    def no_setsid(*args: Any, **kwargs: Any) -> int:
        if kwargs.get("setsid"):
            raise NotImplementedError("setsid")
        return spawn(*args, **kwargs)

    monkeypatch.setattr(os, "posix_spawn", no_setsid)
    script = write(
        tmp_path,
        "leads.py",
        "import os, time\n"
        "print(os.getpgid(0) == os.getpid(), os.getsid(0) == os.getpid(), flush=True)\n"
        "time.sleep(60)\n",
    )
    result = forced.run([PYTHON, str(script)], stdin=b"", limits=Limits(time_s=0.5))
    assert (result.stdout, result.limit_hit) == (b"True False\n", LimitHit.WALL_TIME), result


def test_an_interpreter_that_fails_loudly_before_it_is_up_says_why(
    box: Sandbox, tmp_path: Path
) -> None:
    """All it prints is read, however much, so it ends and its last words reach the error."""
    loud = tmp_path / "loud-python"
    loud.write_text("#!/bin/sh\nhead -c 200000 /dev/zero | tr '\\0' x\necho broken >&2\nexit 1\n")
    loud.chmod(0o755)
    script = write(tmp_path, "ok.py", "print('hi')\n")
    with pytest.raises(InternalError, match=r"did not start: .*broken"):
        box.run([str(loud), str(script)], stdin=b"", limits=Limits())


def test_an_interpreter_that_cannot_be_started_is_the_graders_error(
    forced: Sandbox, tmp_path: Path
) -> None:
    script = write(tmp_path, "ok.py", "print('hi')\n")
    broken = tmp_path / "python"  # its interpreter is gone: exec fails
    broken.write_text("#!/nonexistent/interpreter\n")
    broken.chmod(0o755)
    fds = len(os.listdir("/proc/self/fd"))
    with pytest.raises(InternalError, match=f"^cannot start {broken}: .*No such file"):
        forced.run([str(broken), str(script)], stdin=b"", limits=Limits())
    assert len(os.listdir("/proc/self/fd")) == fds  # its pipes closed: none leaks per run


def test_a_kernel_without_pidfds_still_ends_a_run_on_time(
    forced: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Linux before 5.3 has no pidfd_open (ENOSYS): the first process is killed by its pid."""

    def no_pidfds(pid: int, flags: int = 0) -> int:
        raise OSError(errno.ENOSYS, "Function not implemented")

    monkeypatch.setattr(os, "pidfd_open", no_pidfds)
    script = write(tmp_path, "sleeps.py", "import time\nprint('up', flush=True)\ntime.sleep(60)\n")
    result = forced.run([PYTHON, str(script)], stdin=b"", limits=Limits(time_s=0.5))
    assert (result.stdout, result.limit_hit) == (b"up\n", LimitHit.WALL_TIME), result


@pytest.mark.parametrize("name", ["../up", "a/b", ".hidden"])
def test_a_checkers_file_has_a_plain_name(forced: Sandbox, tmp_path: Path, name: str) -> None:
    script = write(tmp_path, "ok.py", "print('hi')\n")
    with pytest.raises(InternalError, match="a run's files have plain names only"):
        forced.run([PYTHON, str(script)], stdin=b"", limits=Limits(), files={name: b"x"})


def test_a_script_is_never_read_through_a_link_at_its_name(forced: Sandbox, tmp_path: Path) -> None:
    """Swapped for a link to another file (a secret) after it was checked: the grader refuses
    to read it rather than run what the link points at."""
    secret = write(tmp_path, "secret.py", "print('the answers')\n")
    script = tmp_path / "mine.py"
    script.symlink_to(secret)
    with pytest.raises(InternalError, match=f"cannot read the submission {script}: is a symbolic"):
        forced.run([PYTHON, str(script)], stdin=b"", limits=Limits())


def test_the_text_the_caller_read_is_what_runs(forced: Sandbox, tmp_path: Path) -> None:
    """The caller read the script once (``source``): that text runs, whatever is at the path
    by now."""
    script = write(tmp_path, "mine.py", "print('changed since')\n")
    result = forced.run(
        [PYTHON, str(script)], stdin=b"", limits=Limits(), source=b"print('as read')\n"
    )
    assert (result.exit_code, result.stdout) == (0, b"as read\n"), result


def test_ctrl_c_in_a_batch_ends_every_run_in_progress(box: Sandbox, tmp_path: Path) -> None:
    """A batch grades in parallel, all its runs under one sandbox: Ctrl-C ends each of them,
    not only the last one started."""
    ups = [tmp_path / f"up{i}" for i in range(2)]
    for up in ups:
        os.mkfifo(up)
    done: list[float] = []

    def run(up: Path) -> None:
        script = write(
            tmp_path,
            f"{up.name}.py",
            f"open({str(up)!r}, 'w').write('up')\nimport time\ntime.sleep(60)\n",
        )
        started = time.monotonic()
        with contextlib.suppress(InternalError):
            box.run([PYTHON, str(script)], stdin=b"", limits=Limits(time_s=60))
        done.append(time.monotonic() - started)

    workers = [threading.Thread(target=run, args=(up,)) for up in ups]
    for worker in workers:
        worker.start()
    assert [up.read_text() for up in ups] == ["up", "up"]  # both runs are in progress
    box.cancel()
    for worker in workers:
        worker.join(30)
    assert len(done) == 2 and max(done) < 30


THREADS = ("OPENBLAS", "OMP", "MKL", "NUMEXPR")


def test_a_run_sees_the_allow_listed_environment_and_nothing_else(
    forced: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing of the grader's environment (a CI token) reaches a run; what it is given is
    written out here, value by value."""
    monkeypatch.setenv("GITHUB_TOKEN", "secret")
    monkeypatch.delenv("LD_LIBRARY_PATH", raising=False)
    script = write(tmp_path, "env.py", "import os, json\nprint(json.dumps(dict(os.environ)))\n")
    result = forced.run([PYTHON, str(script)], stdin=b"", limits=Limits())
    env = json.loads(result.stdout)
    work = env["HOME"]
    assert env == {
        "PATH": os.defpath,
        "HOME": work,
        "TMPDIR": work,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONUTF8": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "PYTHONIOENCODING": "utf-8",  # for a Python the script starts: -I is the run's alone
        "PYTHONNOUSERSITE": "1",
        **{f"{name}_NUM_THREADS": "1" for name in THREADS},
        "VECLIB_MAXIMUM_THREADS": "1",
    }


def test_a_package_in_the_graders_user_site_is_importable(
    forced: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``pip install --user`` put the student's numpy there: -I and the run's own HOME would
    hide it, so the child adds it."""
    site = tmp_path / "user-site"
    site.mkdir()
    (site / "userpkg.py").write_text("WHERE = 'the user site'\n")
    monkeypatch.setattr(runfolder, "user_site", lambda: str(site))
    script = write(tmp_path, "imports.py", "import userpkg\nprint(userpkg.WHERE)\n")
    result = forced.run([PYTHON, str(script)], stdin=b"", limits=Limits())
    assert (result.exit_code, result.stdout) == (0, b"the user site\n"), result.stderr


def test_a_script_that_is_gone_is_the_graders_error_saying_why(
    forced: Sandbox, tmp_path: Path
) -> None:
    gone_script = tmp_path / "gone.py"
    with pytest.raises(
        InternalError, match=f"^cannot read the submission {gone_script}: No such file"
    ):
        forced.run([PYTHON, str(gone_script)], stdin=b"", limits=Limits())


@pytest.mark.parametrize("name", ["a\\b", "a/b"])
def test_on_windows_both_separators_make_a_name_not_plain(
    forced: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setattr(os, "sep", "\\")
    script = write(tmp_path, "ok.py", "print('hi')\n")
    with pytest.raises(InternalError, match="a run's files have plain names only"):
        forced.run([PYTHON, str(script)], stdin=b"", limits=Limits(), files={name: b"x"})


def test_a_runs_cpu_time_is_its_user_and_system_time(forced: Sandbox, tmp_path: Path) -> None:
    """What the run's first process used once the script was up, as the kernel counted it:
    both its own computing and the kernel's work for it (here mostly the latter); its
    interpreter's start is the machine's, as for its clock. The script says what it used
    itself (the grader's RUSAGE_CHILDREN would count any child reaped meanwhile)."""
    script = write(
        tmp_path,
        "syscalls.py",
        # until the kernel has counted 0.1 s of its own work: how a tick is split between
        # user and system is the kernel's, and a fixed loop once read as 0.01 s of system
        "import os\nbefore = os.times()\n"
        "while os.times()[1] - before[1] < 0.1:\n"
        "    for _ in range(10000):\n        os.stat('.')\n"
        "after = os.times()\nprint(after[0] - before[0], after[1] - before[1])\n",
    )
    result = forced.run([PYTHON, str(script)], stdin=b"", limits=Limits(time_s=30))
    user, system = (float(x) for x in result.stdout.split())
    assert result.exit_code == 0 and system >= 0.1, (result, user, system)
    # os.times counts 10 ms ticks; without the system time it would be >= 0.1 s short
    assert result.cpu_s == pytest.approx(user + system, abs=0.05)


def test_a_reaped_run_lets_its_number_go(forced: Sandbox, tmp_path: Path) -> None:
    """Else a later process under the same number (another run's) would be swept as an
    orphan of this one."""
    from grader.sandbox import orphans

    script = write(tmp_path, "pid.py", "import os\nprint(os.getpid())\n")
    result = forced.run([PYTHON, str(script)], stdin=b"", limits=Limits())
    assert result.exit_code == 0 and int(result.stdout) not in orphans._own
