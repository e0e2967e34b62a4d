"""On a loaded machine, time a run spends waiting for a CPU is not its own: its wall-clock limit
grows by as much (up to three times the limit), and a run the machine starved even so is the
grader's error, never the student's time-out.

The load is made exact: the grader, its runs and a few busy loops share one CPU (affinity)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # seconds of deliberately starved runs: .ci/run's slow pass

CPU = min(os.sched_getaffinity(0))
RUN = r"""
import json, os, sys
os.sched_setaffinity(0, {int(sys.argv[3])})
from grader.judging.errors import InternalError
from grader.sandbox import Limits, Sandbox, SandboxMode
box = Sandbox.create(SandboxMode.AUTO)
try:
    limits = Limits(time_s=float(sys.argv[2]))
    done = box.run([sys.executable, sys.argv[1]], stdin=b"", limits=limits)
    print(json.dumps({"hit": done.limit_hit and str(done.limit_hit), "stdout": done.stdout.decode(),
                      "cpu": done.cpu_s, "wall": done.wall_s}))
except InternalError as exc:
    print(json.dumps({"error": str(exc)}))
"""


@pytest.fixture
def hogs(request: pytest.FixtureRequest) -> Iterator[None]:
    """``request.param`` busy loops on the grader's CPU."""
    started = [
        subprocess.Popen(
            [sys.executable, "-c", "while True: pass"],
            preexec_fn=lambda: os.sched_setaffinity(0, {CPU}),
            start_new_session=True,  # each its own share where the kernel shares per session
        )
        for _ in range(request.param)
    ]
    try:
        yield
    finally:
        for hog in started:
            hog.kill()
            hog.wait()


def _run(script: Path, limit_s: float) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(script), str(limit_s), str(CPU)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize("hogs", [2], indirect=True)
def test_a_run_that_waited_for_a_cpu_still_gets_its_time(hogs: None, tmp_path: Path) -> None:
    """0.4 s of CPU under a 1 s limit, with a third of a CPU: ~1.2 s of wall time, not a
    time-out."""
    script = tmp_path / "compute.py"
    script.write_text(
        "import time\nend = time.process_time() + 0.4\n"
        "while time.process_time() < end:\n    pass\nprint('done')\n"
    )
    result = _run(script, 1.0)
    assert result.get("hit") is None, result
    assert result["stdout"] == "done\n"
    # not a speed assertion: two busy loops on its CPU make it wait, whatever the machine
    assert isinstance(result["wall"], float) and result["wall"] > 1.0


@pytest.mark.parametrize("hogs", [4], indirect=True)
def test_a_run_the_machine_starved_is_the_graders_error(hogs: None, tmp_path: Path) -> None:
    """An endless loop with a fifth of a CPU: after three times its limit it has had less than
    its time, which is not the student's to answer for (it used to read: "it was waiting, not
    computing")."""
    script = tmp_path / "loop.py"
    script.write_text("while True:\n    pass\n")
    result = _run(script, 0.5)
    assert "error" in result, result
    assert "busy" in str(result["error"])


# A helper thread at nice 19 on the main thread's CPU is runnable all along, queued behind the
# main thread: its wait is the run's own doing, not the machine's (red team, round 2).
SELF_QUEUED = """
import hashlib, os, signal, sys, threading, time
signal.signal(signal.SIGXCPU, signal.SIG_IGN)  # up to the hard CPU limit, a second more
cpu = {min(os.sched_getaffinity(0))}
def helper():
    os.sched_setaffinity(0, cpu)
    try:
        os.setpriority(os.PRIO_PROCESS, 0, 19)  # this thread only (refused by seccomp now)
    except PermissionError:
        pass
    block = bytes(1 << 20)
    while True:
        hashlib.sha256(block).digest()  # releases the GIL: runnable all along
threading.Thread(target=helper, daemon=True).start()
os.sched_setaffinity(0, cpu)
block = bytes(1 << 20)
start = time.thread_time()
while %s:
    hashlib.sha256(block).digest()
    %s
print("done")
"""


def test_a_runs_own_threads_queueing_earn_it_nothing(tmp_path: Path) -> None:
    """1.6 s of CPU under a 1 s limit, a helper thread pinned beside the main one: it got ~2.9 s
    of wall time and passed (its helper at nice 19 waited behind it all along)."""
    script = tmp_path / "queued.py"
    script.write_text(SELF_QUEUED % ("time.thread_time() - start < 1.6", "pass"))
    result = _run(script, 1.0)
    assert result.get("hit") == "wall_time", result


NICE_HELPER = """
import hashlib, os, sys, threading
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
def helper():
    os.setpriority(os.PRIO_PROCESS, 0, 19)  # this thread only: queued behind the main one
    block = bytes(1 << 20)
    while True:
        hashlib.sha256(block).digest()
threading.Thread(target=helper, daemon=True).start()
block = bytes(1 << 20)
print("started", flush=True)
while True:
    hashlib.sha256(block).digest()
"""


@pytest.mark.parametrize("hogs", [0, 1], indirect=True)
def test_only_others_load_counts_as_waiting(hogs: None, request: pytest.FixtureRequest) -> None:
    """What a run is kept waiting is its longest thread's wait, but never more than the wall
    time it spent off a CPU: a thread queued behind its own sibling (setpriority is refused in
    the sandbox, not here) waits ~all along while the run keeps the CPU busy."""
    import time

    from grader.judging.timing import kept_waiting as _kept_waiting
    from grader.sandbox import procfs

    with subprocess.Popen([sys.executable, "-c", NICE_HELPER], stdout=subprocess.PIPE) as proc:
        try:
            assert proc.stdout is not None and proc.stdout.readline() == b"started\n"
            while _age(proc.pid) < 1.0:  # a second of the run: time itself is what is measured
                time.sleep(0.05)
            cpu, queued = procfs.usage(proc.pid)
            kept = _kept_waiting(cpu, queued, _age(proc.pid))
        finally:
            proc.kill()
    assert queued > 0.5  # the niced helper waited nearly all along
    if request.node.callspec.params["hogs"] == 0:
        assert kept < 0.25, (queued, kept)  # its own doing
    else:
        assert kept > 0.3, (queued, kept)  # a busy loop elsewhere took half the CPU


def _age(pid: int) -> float:
    """Seconds since ``pid`` started: the wall time its CPU time is counted against."""
    with open(f"/proc/{pid}/stat") as f:
        started = int(f.read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
    with open("/proc/uptime") as f:
        return float(f.read().split()[0]) - started
