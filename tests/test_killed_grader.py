"""A grader killed with SIGKILL (or by the OOM killer) leaves no run behind, in every
environment of the attack matrix and both isolations (issue 22, finding 2).

Runs are found by what they are, not by their argv (which names the sandbox's child module, not
the script): a process whose working directory lies in the grader's own temporary folder.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path

import pytest
from test_sandbox_findings import ENVIRONMENTS, _start

pytestmark = pytest.mark.slow  # seven environments, each a grader started and killed

KILLED = """
import json, os, sys, threading
from grader.sandbox import Isolation, Limits, Sandbox, SandboxMode
args = json.loads(sys.argv[1])
box = Sandbox.create(SandboxMode(args["mode"]), isolation=Isolation(args["isolation"]))
script = os.path.join(os.environ["TMPDIR"], "sleeper.py")
with open(script, "w") as f:
    f.write("import time\\ntime.sleep(120)\\n")
for _ in range(2):
    threading.Thread(
        target=box.run,
        args=([sys.executable, script],),
        kwargs={"stdin": b"", "limits": Limits(time_s=100)},
        daemon=True,
    ).start()
print("started", flush=True)
threading.Event().wait()
"""


def _runs_in(folder: Path) -> list[int]:
    """Processes whose working directory is below ``folder``: its runs (P, and where there
    are no namespaces the script itself)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cwd = os.readlink(f"/proc/{entry}/cwd")
        except OSError:
            continue
        if cwd.startswith(str(folder) + "/"):
            found.append(int(entry))
    return found


def _until(condition: object, seconds: float) -> bool:
    """Poll ``condition`` (a callable) until it holds or ``seconds`` pass: a bound, no sleep
    that a test waits out when things go well."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return bool(condition())  # type: ignore[operator]


@pytest.mark.parametrize("isolation", ["fork", "fresh"])
@pytest.mark.parametrize("environment", ENVIRONMENTS)
def test_no_run_outlives_a_killed_grader(environment: str, isolation: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("the matrix needs root to start its graders")
    scratch = Path(tempfile.mkdtemp(prefix="grade-killed-"))
    scratch.chmod(0o755)
    try:
        job = _start(environment, scratch, KILLED, isolation=isolation)
        if isinstance(job, str):
            pytest.skip(job)
        grader, _args = job
        try:
            assert grader.stdout is not None and grader.stdout.readline() == "started\n"
            assert _until(lambda: len(_runs_in(scratch)) >= 2, 60), "the runs never started"
        finally:
            grader.send_signal(signal.SIGKILL)
            grader.communicate(timeout=60)
        left = []
        if not _until(lambda: not _runs_in(scratch), 10):
            left = _runs_in(scratch)
            for pid in left:
                with contextlib.suppress(ProcessLookupError):  # gone with its parent
                    os.kill(pid, signal.SIGKILL)
        assert not left, f"{len(left)} processes of runs outlived the grader in {environment}"
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
