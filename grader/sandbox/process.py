"""Start the sandbox child, wait for it with a wall-clock limit, kill what is left, read its output.

The child is started with ``posix_spawn`` (safe while the grader runs cases on threads) in a session
of its own, with stdin, stdout and stderr redirected to regular files: output capped by RLIMIT_FSIZE
costs neither memory nor a deadlock. Waiting uses a pidfd, so a run ends the moment the child does.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..judging.errors import InternalError
from ..judging.timing import deadline_s, kept_waiting
from . import cgroups, orphans, procfs

if TYPE_CHECKING:
    from .forkserver import Child, ForkServer

STATUS_FD = 3  # the child writes one byte here once its sandbox is up
CONFIG_FD = 4  # the child reads its config here: never in its argv, which the run can see


class Running:
    """The runs in progress and how to end each one's processes, so that Ctrl-C can end them
    at once: a Linux run's process group, a portable run's tree (its group, or its Job Object)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._killers: dict[object, Callable[[], None]] = {}
        self.cancelled = False

    def add(self, pid: int) -> None:
        self.add_killer(pid, lambda: _kill_run(pid))

    def remove(self, pid: int) -> None:
        self.remove_killer(pid)

    def add_killer(self, key: object, kill: Callable[[], None]) -> None:
        with self._lock:
            self._killers[key] = kill
            if self.cancelled:
                kill()

    def remove_killer(self, key: object) -> None:
        with self._lock:
            self._killers.pop(key, None)

    def cancel(self) -> None:
        with self._lock:
            self.cancelled = True
            for kill in self._killers.values():
                kill()


@dataclass(frozen=True)
class Exit:
    status: int  # as os.waitstatus_to_exitcode: negative for a signal
    wall_s: float
    cpu_s: float
    timed_out: bool
    sandbox_ready: bool
    queued_s: float = 0.0  # of a timed-out run: how long others' load kept it from a CPU
    cpu_limited: bool = False  # ended by the CPU limit (SIGXCPU, or a Job Object's time limit)
    over_limit: str | None = None  # "memory", "processes": a portable run's tree watch ended it
    # the run's peak memory in bytes, as the runner measured it (see peak_from_rusage); None
    # where nothing said
    peak_bytes: int | None = None


# ru_maxrss counts KiB on Linux, bytes on macOS
_MAXRSS_UNIT = 1 if sys.platform == "darwin" else 1024


def peak_from_rusage(maxrss: int) -> int | None:
    """A reaped child's ``ru_maxrss`` in bytes: the largest resident set of the child and of
    every descendant it waited for (with namespaces, the submission under its init); None
    where the kernel gave nothing."""
    return maxrss * _MAXRSS_UNIT if maxrss > 0 else None


def spawn_and_wait(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    stdin: Path,
    stdout: Path,
    stderr: Path,
    config: Path,
    timeout_s: float,
    also_kill_uid: int | None = None,
    running: Running | None = None,
    server: ForkServer | None = None,
    group: str | None = None,
    relay: bool = False,
) -> Exit:
    """Start the child (``argv`` with posix_spawn, or a fork from ``server``), wait for it at
    most ``timeout_s``, kill its group and whatever else it left, and reap it. A spawned child
    is put in the control group ``group`` before it gets its config (so before it can start
    anything). ``relay``: the child only waits for the run's init (namespaces), whose end it
    reports; else it is the submission itself."""
    ready_r, ready_w = os.pipe()
    start = time.monotonic()
    pidfd: int | None
    child: Child | None
    handing: int | None = None  # the config pipe's write end, for a child put in ``group``
    try:
        try:
            if server is not None:
                pid, pidfd, child = _fork(server, env, stdin, stdout, stderr, ready_w, config)
                # its clock starts now: waiting for a server still busy with its preloads (on
                # a loaded machine, seconds) is not the run's time
                start = time.monotonic()
            elif group is None:
                pid, pidfd, child = _spawn(argv, env, stdin, stdout, stderr, ready_w, config)
            else:
                config_r, handing = os.pipe()
                try:
                    pid, pidfd, child = _spawn(argv, env, stdin, stdout, stderr, ready_w, config_r)
                except BaseException:
                    os.close(handing)
                    raise
                finally:
                    os.close(config_r)
        finally:
            os.close(ready_w)
        if running is not None:
            running.add(pid)
        timed_out = True
        try:
            if handing is not None:
                fd, handing = handing, None
                _hand_config(pid, group or "", config, fd, start + timeout_s)
            timed_out = not _wait_for_run(pid, start, timeout_s, pidfd)
            wall = time.monotonic() - start
        finally:
            spent = queued = 0.0
            if timed_out:  # the killed cannot say it once they are gone
                spent, most = procfs.usage(pid)
                queued = kept_waiting(spent, most, time.monotonic() - start)
                if relay:
                    _end_children_first(pid, pidfd)
            # The child is a zombie or still running, so its pid (= its group id) cannot be reused
            # yet: killing the group also ends whatever it left behind.
            _kill_run(pid)
            if also_kill_uid is not None:
                kill_uid(also_kill_uid)
            if running is not None:  # before the reap frees its pid for any other process
                running.remove(pid)
            if server is not None and child is not None:
                status, cpu, peak = server.reap(child)  # closes the pidfd
            else:
                if pidfd is not None:
                    os.close(pidfd)
                _, status, usage = os.wait4(pid, 0)
                cpu = usage.ru_utime + usage.ru_stime
                peak = peak_from_rusage(usage.ru_maxrss)
            cpu = max(cpu, spent)
        ready = os.read(ready_r, 1) == b"1"
    finally:
        os.close(ready_r)
    return Exit(
        status=os.waitstatus_to_exitcode(status),
        wall_s=wall,
        cpu_s=cpu,
        timed_out=timed_out,
        sandbox_ready=ready,
        queued_s=queued,
        peak_bytes=peak,
    )


def _hand_config(pid: int, group: str, config: Path, pipe: int, deadline: float) -> None:
    """Put the spawned child in ``group``, then write it its config on ``pipe`` (and close it):
    joining a group waits ~9 ms for the kernel, which the child's interpreter start-up hides.
    A child not in its group gets no config, and fails before its sandbox is up (the grader's
    error)."""
    try:
        if not cgroups.attach(group, pid):
            raise InternalError(f"cannot put the run in its control group {group}")
        _write_all(pipe, config.read_bytes(), deadline)
    finally:
        os.close(pipe)


def _write_all(fd: int, data: bytes, deadline: float) -> None:
    """Write ``data`` to the pipe ``fd`` until done, the reader gone, or ``deadline``."""
    os.set_blocking(fd, False)
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    view = memoryview(data)
    while view:
        left = deadline - time.monotonic()
        if left <= 0 or not poller.poll(max(1, int(left * 1000))):
            return
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:
            continue
        except OSError:  # the child is gone: its run says so
            return


def _spawn(
    argv: Sequence[str],
    env: Mapping[str, str],
    stdin: Path,
    stdout: Path,
    stderr: Path,
    ready_w: int,
    config: Path | int,
) -> tuple[int, int | None, None]:
    """``config`` is the config's file, or a descriptor to read it from."""
    out_flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    given = (
        (os.POSIX_SPAWN_DUP2, config, CONFIG_FD)
        if isinstance(config, int)
        else (os.POSIX_SPAWN_OPEN, CONFIG_FD, str(config), os.O_RDONLY, 0)
    )
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, str(stdin), os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, str(stdout), out_flags, 0o600),
        (os.POSIX_SPAWN_OPEN, 2, str(stderr), out_flags, 0o600),
        (os.POSIX_SPAWN_DUP2, ready_w, STATUS_FD),
        given,
    ]
    try:
        pid = orphans.spawn(
            lambda: os.posix_spawn(
                argv[0],
                list(argv),
                dict(env),
                file_actions=actions,
                setsid=True,
                setsigmask=(),  # the grader's worker threads block SIGINT/SIGTERM: runs must not
                setsigdef=(signal.SIGINT, signal.SIGTERM, signal.SIGPIPE),
            )
        )
    except OSError as exc:
        raise InternalError(f"cannot start {argv[0]}: {exc}") from exc
    try:
        pidfd: int | None = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None  # macOS, old kernels: _wait_for_exit polls instead
    return pid, pidfd, None


def _fork(
    server: ForkServer,
    env: Mapping[str, str],
    stdin: Path,
    stdout: Path,
    stderr: Path,
    ready_w: int,
    config: Path,
) -> tuple[int, int, Child]:
    out_flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    opened: list[int] = []
    try:
        opened.append(os.open(stdin, os.O_RDONLY))
        opened.append(os.open(stdout, out_flags, 0o600))
        opened.append(os.open(stderr, out_flags, 0o600))
        opened.append(ready_w)
        opened.append(os.open(config, os.O_RDONLY))
        child = server.spawn(opened, env)
    finally:
        for fd in opened:
            if fd != ready_w:
                os.close(fd)
    return child.pid, child.pidfd, child


def _wait_for_run(pid: int, start: float, timeout_s: float, pidfd: int | None) -> bool:
    """True if the run exited within ``timeout_s`` of its own time: the time it spent runnable
    but waiting for a CPU (others' load) stretches its deadline (``timing.deadline_s``). A
    script that sleeps or waits for input is not runnable meanwhile: its limit stays."""
    deadline = start + timeout_s
    while True:
        if _wait_for_exit(pid, max(0.0, deadline - time.monotonic()), pidfd):
            return True
        waited = kept_waiting(*procfs.usage(pid), time.monotonic() - start)
        later = start + deadline_s(timeout_s, waited)
        if later - time.monotonic() < 0.005:
            return False
        deadline = later


def _wait_for_exit(pid: int, timeout_s: float, pidfd: int | None) -> bool:
    """True if ``pid`` exited within the timeout. Leaves it unreaped."""
    if pidfd is None:
        return _poll_for_exit(pid, timeout_s)
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    return bool(poller.poll(max(0, int(timeout_s * 1000))))


def _poll_for_exit(pid: int, timeout_s: float) -> bool:
    # Fallback where pidfd is missing (macOS, old kernels): short sleeps, never growing ones.
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
            return True
        time.sleep(0.002)
    return False


_REAPED_S = 1.0  # for the child to reap its own, once they are killed


def _end_children_first(pid: int, pidfd: int | None) -> None:
    """End the still-running child's own children (the run's init, with namespaces), and give
    it a moment to reap them: killed at once with them, it could die first and leave them
    zombies for whoever adopts them, which PID 1 of a container may never reap, and which
    count against a group's task limit meanwhile.

    The init's children (the submission) go first, so that the init reaps them as it does a
    run that ends on its own, and their peak memory reaches the child's rusage: an init
    killed first lets its dying namespace reap them unaccounted (it ignores SIGCHLD by then),
    and a killed run said the relay's 17 MB where it held 210."""
    children = procfs.children(pid)
    runs = [run for child in children for run in procfs.children(child)]
    _kill_all(runs)
    if runs and pidfd is not None and _wait_for_exit(pid, _REAPED_S, pidfd):
        return  # the init reaped them and ended, and the child after it
    _kill_all(children)
    if children and pidfd is not None:  # it ends once it has reaped them (_child._relay)
        _wait_for_exit(pid, _REAPED_S, pidfd)


def _kill_all(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _kill_run(pid: int) -> None:
    """Kill the run's child ``pid`` and its group: before its setsid() it leads none yet."""
    _kill_group(pid)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)


def kill_uid(uid: int) -> None:
    """SIGKILL every process owned by ``uid`` (a run's private uid): catches setsid escapees."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid == uid:
                os.kill(int(entry.name), signal.SIGKILL)
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            pass


def read_capped(path: Path, cap: int) -> tuple[bytes, bool]:
    """At most ``cap`` bytes of ``path``, and whether it held more."""
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            return f.read(cap), size > cap
    except FileNotFoundError:
        return b"", False
