"""The portable runner: where the Linux sandbox cannot go (macOS, Windows; Linux when asked),
what the platform gives and no more, named as such in one line.

Every run gets a fresh temporary folder as its cwd, HOME and TMP, a clean environment, the
wall-clock limit, the output cap (its stdout and stderr are pipes the grader reads and stops at
the cap) and its process tree ended on time-out, Ctrl-C or the grader's exit. On POSIX the child
sets RLIMIT_CPU and friends itself (``_portable_child.py``) and leads a process group of its
own; on Windows a Job Object (``winjob.py``) holds the tree and its memory, CPU time and process
count. Nothing is hidden from a run: it can read what the grader's user may.

This module is the run from start to outcome; its parts: ``platforms.py`` (which runner, what
it holds, the notice), ``runfolder.py`` (the run's folder and environment), ``posixstart.py``
and ``winstart.py`` (the start, the kill, the figures), ``capped.py`` (the output readers),
``runclock.py`` (the started run and its clock).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ..judging.errors import InternalError
from ..judging.runs import Limits
from ..judging.timing import start_allowance_s
from .capped import Capped
from .platforms import PORTABLE_ENV as PORTABLE_ENV
from .platforms import PROCESSES
from .platforms import enforced as enforced
from .platforms import live_cpu_known as live_cpu_known
from .platforms import notice as notice
from .platforms import platform_name as platform_name
from .platforms import strict_refusal as strict_refusal
from .platforms import wanted as wanted
from .posixstart import start_posix
from .process import Exit, Running
from .runclock import KILLED_S, Started, wait_stretched
from .runfolder import environment, lay_out, remove
from .runfolders import new_run_folder
from .winstart import start_windows

_CHILD = Path(__file__).with_name("_portable_child.py")
# A run leads a session of its own where posix_spawn can (Linux, macOS 10.15+): a process may
# join any process group of its session, and in the grader's session the grader's own group was
# one, out of reach of the run's kill (issue 38, red team A)
_OWN_SESSION = True
# the started run and its clock under the names the runner's tests know them by
_Started = Started
_wait_stretched = wait_stretched


@dataclass(frozen=True)
class Outcome:
    """One portable run, as the Linux sandbox's ``Exit`` plus its captured streams."""

    exit: Exit
    stdout: bytes
    stderr: bytes
    over: str | None  # the stream that went over the cap


def run(
    python: str,
    script: str,
    stdin: bytes,
    limits: Limits,
    *,
    args: Sequence[str] = (),
    files: Mapping[str, bytes] | None = None,
    text: bytes | None = None,
    running: Running | None = None,
) -> Outcome:
    """Run ``python script *args`` with ``stdin`` as input under this platform's limits."""
    folder = new_run_folder(tempfile.gettempdir())
    base = folder.path
    try:
        config = lay_out(base, os.path.abspath(script), stdin, files or {}, text, limits, args)
        env = environment(base / "work")
        # -I ignores PYTHONUTF8: -X utf8 is what gives UTF-8 stdio and open() everywhere
        argv = [python, "-I", "-X", "utf8", str(_CHILD), str(config)]
        with (base / "stdin").open("rb") as given:
            started = _start(argv, env, given, base / "work", limits)
        return _wait(started, limits, running)
    finally:
        folder.remove(remove)


def _start(
    argv: list[str], env: dict[str, str], stdin: IO[bytes], cwd: Path, limits: Limits
) -> Started:
    if sys.platform == "win32":
        return start_windows(argv, env, stdin, cwd, limits)
    return start_posix(argv, env, stdin, limits, own_session=_OWN_SESSION)


def _wait(started: Started, limits: Limits, running: Running | None) -> Outcome:
    cap = limits.output_kb * 1024
    out = Capped(started.stdout, cap, started.kill, marked=True)
    err = Capped(started.stderr, cap, started.kill, marked=False)
    key = object()
    if running is not None:
        running.add_killer(key, started.kill)
    try:
        # the interpreter's start is the machine's time: the script's clock starts once it is
        # up (a child that is not up by the allowance is stopped: the grader's error)
        up_by = started.start + start_allowance_s(limits.time_s)
        out.up.wait(max(0.0, up_by - time.monotonic()))
        begun = out.ready_at if out.ready else started.start
        # and so is its CPU time: a compile check on a busy laptop (or Wine, which counts the
        # start and little after it) read it as computing, and the script as "does not compile"
        cpu_up = out.cpu_at_ready if out.ready else None
        # what kept it from a CPU, read before the kill leaves nothing to ask
        if out.ready:
            status, queued = wait_stretched(started, begun, limits.time_s)
        else:
            status, queued = started.wait(up_by - time.monotonic()), 0.0
        wall = time.monotonic() - begun
        timed_out = status is None and not (out.over or err.over)
        if not timed_out:
            queued = 0.0
        # the tree goes with its first process, or a child it left would hold the pipes open
        started.kill()
        if status is None:
            status = started.wait(KILLED_S)
        stdout, stderr = out.join(), err.join()
        cpu = started.cpu_s()
        if cpu_up is not None:
            cpu = max(0.0, cpu - cpu_up)
        peak = started.peak_bytes()  # before close: a Job Object's figures go with its handle
    finally:
        if running is not None:
            running.remove_killer(key)
        started.close()
    if status is None:
        raise InternalError(f"a killed run did not end within {KILLED_S:.0f} s")
    exit = Exit(
        status=status,
        wall_s=wall,
        cpu_s=cpu,
        timed_out=timed_out,
        sandbox_ready=out.ready,
        cpu_limited=started.cpu_limited(status),
        queued_s=queued,
        over_limit=started.over_limit(),
        peak_bytes=peak,
    )
    if exit.over_limit == "processes":  # no exception says it: the runner's own words
        stderr += f"\ngrade: more than {PROCESSES} processes at once; stopped\n".encode()
    elif started.hidden():
        stderr += b"\ngrade: a process of the run hid its memory from the grader; stopped\n"
    return Outcome(exit, stdout, stderr, "stdout" if out.over else "stderr" if err.over else None)
