"""A portable run started on POSIX (macOS; Linux with GRADE_PORTABLE=1): posix_spawn into a
session (or a process group) of its own, reaped on a thread of its own, its tree killed by
group, by pidfd or pid, and through the tree watch, which also holds the tree's memory and
process count."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from typing import IO

from ..judging.errors import InternalError
from ..judging.runs import Limits
from . import orphans, treewatch
from .platforms import PROCESSES
from .process import peak_from_rusage
from .runclock import KILLED_S, Started, live_usage

_SIGXCPU = 24  # the same on Linux and macOS; none on Windows


def start_posix(
    argv: list[str],
    env: dict[str, str],
    stdin: IO[bytes],
    limits: Limits,
    *,
    own_session: bool,
) -> Started:
    """``own_session``: the run leads a session of its own where posix_spawn can (Linux, macOS
    10.15+); else, and where it cannot, a process group of its own. No cwd: the child goes to
    its work folder itself (``ChildConfig.workdir``)."""
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    watch_r, watch_w = os.pipe()  # the child's read end sees EOF when the grader goes
    for fd in (out_r, err_r, watch_w):
        os.set_inheritable(fd, False)

    def spawn(session: bool) -> int:
        actions = [
            (os.POSIX_SPAWN_DUP2, stdin.fileno(), 0),
            (os.POSIX_SPAWN_DUP2, out_w, 1),
            (os.POSIX_SPAWN_DUP2, err_w, 2),
            (os.POSIX_SPAWN_DUP2, watch_r, 3),
        ]
        # the grader's worker threads block SIGINT/SIGTERM: runs must not
        default = (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE)
        if session:
            return os.posix_spawn(
                argv[0],
                argv,
                env,
                file_actions=actions,
                setsid=True,
                setsigmask=(),
                setsigdef=default,
            )
        # a mutant without a group of its own puts the run in the test runner's, which the
        # run's watch thread then kills whole (two mutation runs died so at 442 of 727)
        return os.posix_spawn(
            argv[0],
            argv,
            env,
            file_actions=actions,
            setpgroup=0,  # pragma: no mutate
            setsigmask=(),
            setsigdef=default,
        )

    orphans.adopt()  # Linux: what a double fork leaves comes to the grader, not to init
    try:
        try:
            pid = orphans.spawn(lambda: spawn(own_session))
        except NotImplementedError:  # no POSIX_SPAWN_SETSID here: a group, killed by pid too
            pid = orphans.spawn(lambda: spawn(False))
    except OSError as exc:
        for fd in (out_r, out_w, err_r, err_w, watch_r, watch_w):
            os.close(fd)
        raise InternalError(f"cannot start {argv[0]}: {exc}") from exc
    for fd in (out_w, err_w, watch_r):
        os.close(fd)
    # the first process, by a handle no other process can take (Linux): not yet reaped, so it
    # is this one
    pidfd: int | None = None
    with contextlib.suppress(AttributeError, OSError):  # macOS; a kernel before 5.3
        pidfd = os.pidfd_open(pid)
    start = time.monotonic()
    reaped: list[tuple[int, float, int | None]] = []
    done = threading.Event()

    def reap() -> None:
        _, status, usage = os.wait4(pid, 0)
        orphans.reaped(pid)
        cpu = usage.ru_utime + usage.ru_stime
        reaped.append((os.waitstatus_to_exitcode(status), cpu, peak_from_rusage(usage.ru_maxrss)))
        done.set()

    threading.Thread(target=reap, daemon=True, name="grade-reap").start()

    def wait(timeout: float) -> int | None:
        return reaped[0][0] if done.wait(max(0.0, timeout)) else None

    def kill() -> None:
        # also once the leader is reaped: what it left (holding its pipes open) is still in
        # its group, and a group id is not reused while the group has members
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
        # the first process by itself, wherever it went: by its pidfd, else by its pid while
        # it is not reaped (the reaper's wait keeps the pid from another process till then)
        with contextlib.suppress(OSError):  # gone already (ESRCH), or not the grader's to kill
            if pidfd is not None:
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            elif not done.is_set():
                os.kill(pid, signal.SIGKILL)
        if watch is not None:  # and what left the group, or its session, while it was seen
            watch.end_all()
        orphans.sweep()  # and what left the tree unseen, the grader's since (Linux)

    look = treewatch.default_look()
    watch = None
    if look is not None:

        def look_and_sweep(leader: int, look: treewatch.Look = look) -> list[treewatch.Seen]:
            orphans.sweep()  # an orphan lives no longer than a look: its limits are no one's
            return look(leader)

        watch = treewatch.TreeWatch(
            pid,
            memory=limits.memory_mb << 20,
            processes=PROCESSES,
            stop_run=kill,
            look=look_and_sweep,
        ).start()

    def close() -> None:
        kill()
        done.wait(KILLED_S)  # bounded; the watch pipe's close next tells the child to go
        os.close(watch_w)
        if pidfd is not None:
            os.close(pidfd)

    return Started(
        wait=wait,
        kill=kill,
        cpu_s=lambda: reaped[0][1] if reaped else 0.0,
        usage_now=lambda: (None, None) if reaped else live_usage(pid),
        close=close,
        stdout=os.fdopen(out_r, "rb", buffering=0),
        stderr=os.fdopen(err_r, "rb", buffering=0),
        start=start,
        cpu_limited=lambda status: status == -_SIGXCPU,
        over_limit=lambda: None if watch is None else watch.over,
        hidden=lambda: watch is not None and watch.hidden,
        peak_bytes=lambda: _larger(
            reaped[0][2] if reaped else None, None if watch is None else watch.peak
        ),
    )


def _larger(rusage: int | None, watched: int | None) -> int | None:
    """The run's peak: its first process's rusage (the script itself, exact, and what it
    waited for), or what the tree watch saw of the whole tree at once (sampled: a child the
    script did not wait for), whichever is more."""
    found = [n for n in (rusage, watched) if n]
    return max(found) if found else None
