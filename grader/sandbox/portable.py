"""The portable runner: where the Linux sandbox cannot go (macOS, Windows; Linux when asked),
what the platform gives and no more, named as such in one line.

Every run gets a fresh temporary folder as its cwd, HOME and TMP, a clean environment, the
wall-clock limit, the output cap (its stdout and stderr are pipes the grader reads and stops at
the cap) and its process tree ended on time-out, Ctrl-C or the grader's exit. On POSIX the child
sets RLIMIT_CPU and friends itself (``_portable_child.py``) and leads a process group of its
own; on Windows a Job Object (``winjob.py``) holds the tree and its memory, CPU time and process
count. Nothing is hidden from a run: it can read what the grader's user may.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ..judging._compat import READ_UNLINKED
from ..judging.errors import InternalError
from ..judging.runs import Limits
from ..judging.timing import cpu_cap_s, deadline_s, portable_waited, start_allowance_s
from . import orphans, procfs, treewatch
from ._protocol import ChildConfig, limit_fields
from .allowed import child_environment, user_site
from .cleanup import remove_tree
from .process import Exit, Running, peak_from_rusage

PORTABLE_ENV = "GRADE_PORTABLE"  # "1": the portable runner on Linux too (tests, comparisons)
_CHILD = Path(__file__).with_name("_portable_child.py")
_READY = b"\x06"  # _portable_child.READY
_NOFILE = 256
_PROCESSES = 64
_CHUNK = 65536
# After the run's kill, how long its pipes are read on: what the killed processes wrote is
# there at once; only a process the kill missed keeps a pipe open longer
_DRAIN_S = 2.0
_SIGXCPU = 24  # the same on Linux and macOS; none on Windows
# How long a killed run's first process may take to go before the grader calls it its own error
_KILLED_S = 60.0
# A run leads a session of its own where posix_spawn can (Linux, macOS 10.15+): a process may
# join any process group of its session, and in the grader's session the grader's own group was
# one, out of reach of the run's kill (issue 38, red team A)
_OWN_SESSION = True
_NAMES = {"win32": "Windows", "darwin": "macOS"}


def forced() -> bool:
    return os.environ.get(PORTABLE_ENV) == "1"


def wanted() -> bool:
    """Whether runs here go through this runner rather than the Linux sandbox."""
    return sys.platform != "linux" or forced()


def platform_name() -> str:
    return _NAMES.get(sys.platform, "Linux" if sys.platform == "linux" else sys.platform)


def enforced() -> tuple[str, ...]:
    """What this platform's runner holds a run to, in the notice's words."""
    if sys.platform == "win32" or treewatch.default_look() is not None:
        # the Job Object; elsewhere the tree watch (macOS: psutil, as RLIMIT_DATA and RLIMIT_AS
        # do not bind malloc there; Linux: /proc, across the tree RLIMIT_DATA holds one of)
        return ("time", "memory", "processes", "output")
    if sys.platform == "darwin":  # RLIMIT_DATA and RLIMIT_AS do not bind malloc there
        return ("time", "output")
    return ("time", "memory", "output")  # RLIMIT_DATA, of each process on its own


def _where() -> str:
    return f"with {PORTABLE_ENV}=1" if sys.platform == "linux" else f"on {platform_name()}"


def notice() -> str:
    """The one line a command says of this runner (the CLI prefixes ``grade: ``)."""
    held = enforced()
    listed = ", ".join(held[:-1]) + f" and {held[-1]}" if len(held) > 1 else held[0]
    # where a run's CPU time cannot be read while it runs, a busy machine's wait is not known
    busy = "" if live_cpu_known() else "; a busy machine may time out a slow run"
    # a Job Object holds every process of the tree; Linux's subreaper, what a double fork
    # leaves; elsewhere the process a double fork leaves is the tree watch's only if it saw it
    held_all = sys.platform in ("win32", "linux")
    escapes = "" if held_all else " (a double fork may outlive them)"
    return (
        f"{_where()}, runs are limited in {listed} but not isolated from your files{escapes}; "
        f"fine for practice, CI grades on Linux{busy}"
    )


def strict_refusal() -> str:
    return (
        f"--sandbox strict: {_where()} runs cannot be isolated (no namespaces, Landlock "
        "or seccomp); grade with --sandbox auto for practice, and on Linux for grading"
    )


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
    base = Path(tempfile.mkdtemp(prefix="grade-run-"))
    try:
        config = _lay_out(base, os.path.abspath(script), stdin, files or {}, text, limits, args)
        env = _environment(base / "work")
        # -I ignores PYTHONUTF8: -X utf8 is what gives UTF-8 stdio and open() everywhere
        argv = [python, "-I", "-X", "utf8", str(_CHILD), str(config)]
        with (base / "stdin").open("rb") as given:
            started = _start(argv, env, given, base / "work", limits)
        return _wait(started, limits, running)
    finally:
        _remove(base)


def _lay_out(
    base: Path,
    script: str,
    stdin: bytes,
    files: Mapping[str, bytes],
    text: bytes | None,
    limits: Limits,
    args: Sequence[str],
) -> Path:
    """The run's folder: its work dir (with a checker's files), the grader's copy of the
    script, its stdin and its config. The grader writes them: no limit of the run's applies."""
    work = base / "work"
    work.mkdir()
    if any(os.sep in n or "/" in n or n.startswith(".") for n in files):
        raise InternalError(f"a run's files have plain names only: {sorted(files)}")
    for name, content in files.items():
        (work / name).write_bytes(content)
    source = base / "submission.py"
    source.write_bytes(text if text is not None else _read_unlinked(script))
    (base / "stdin").write_bytes(stdin)
    config = ChildConfig(
        parent=os.getpid(),
        workdir=str(work),
        root="",
        submission=script,
        source=str(source),
        args=tuple(args),
        files={},
        probe=False,
        layers=(),
        uid=None,
        gid=None,
        read=(),
        list=(),
        devices=(),
        **limit_fields(limits, cpu_cap_s(limits.time_s)),
        nofile=_NOFILE,
        nproc=_PROCESSES,
        user_site=user_site() or "",
        compiled={},
        landlock_abi_max=0,
    )
    (base / "config").write_bytes(config.to_wire())
    return base / "config"


def _read_unlinked(script: str) -> bytes:
    """The script's bytes, never through a link at its own name (where the OS can tell)."""
    try:
        fd = os.open(script, READ_UNLINKED)
    except OSError as exc:
        why = "is a symbolic link now" if os.path.islink(script) else exc.strerror
        raise InternalError(f"cannot read the submission {script}: {why}") from exc
    with os.fdopen(fd, "rb") as f:
        return f.read()


def _environment(work: Path) -> dict[str, str]:
    env = child_environment(work, os.environ)
    env["PYTHONIOENCODING"] = "utf-8"
    env["PYTHONNOUSERSITE"] = "1"
    if sys.platform == "win32":
        # Windows needs SYSTEMROOT to start a process that uses sockets or random numbers
        for name in ("SYSTEMROOT", "SYSTEMDRIVE", "WINDIR"):
            if name in os.environ:
                env[name] = os.environ[name]
        env["TEMP"] = env["TMP"] = env["USERPROFILE"] = str(work)
        env["PATH"] = os.path.dirname(sys.executable)
    return env


@dataclass
class _Started:
    """A started run: how to wait for it, end its tree, and read what it used."""

    wait: Callable[[float], int | None]  # exit status within the timeout, or None
    kill: Callable[[], None]  # the whole tree
    cpu_s: Callable[[], float]
    # while it runs, where the platform says (else None): its CPU time, its wait for a CPU
    usage_now: Callable[[], tuple[float | None, float | None]]
    close: Callable[[], None]
    stdout: IO[bytes]
    stderr: IO[bytes]
    start: float
    cpu_limited: Callable[[int], bool]  # whether this exit status is the CPU limit's doing
    # the limit the tree watch stopped it at ("memory", "processes"), if it did (POSIX)
    over_limit: Callable[[], str | None] = lambda: None
    # whether the watch stopped it because a process hid its memory (not dumpable, not ours)
    hidden: Callable[[], bool] = lambda: False
    # its peak memory in bytes once it has ended, where the platform says (see _start_posix)
    peak_bytes: Callable[[], int | None] = lambda: None


def _start(
    argv: list[str], env: dict[str, str], stdin: IO[bytes], cwd: Path, limits: Limits
) -> _Started:
    if sys.platform == "win32":
        from . import winjob

        return _start_windows(winjob, argv, env, stdin, cwd, limits)
    return _start_posix(argv, env, stdin, cwd, limits)


def _start_windows(
    winjob: types.ModuleType,
    argv: list[str],
    env: dict[str, str],
    stdin: IO[bytes],
    cwd: Path,
    limits: Limits,
) -> _Started:
    job = winjob.Job(
        memory_bytes=limits.memory_mb << 20,
        cpu_s=cpu_cap_s(limits.time_s),
        processes=_PROCESSES,
    )
    try:
        process: subprocess.Popen[bytes] = job.start(argv, env=env, stdin=stdin, cwd=cwd)
    except BaseException:
        job.close()
        raise
    start = time.monotonic()
    assert process.stdout is not None and process.stderr is not None

    def wait(timeout: float) -> int | None:
        try:
            return process.wait(timeout=max(0.0, timeout))
        except subprocess.TimeoutExpired:
            return None

    def close() -> None:
        job.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)
        job.close()

    return _Started(
        wait=wait,
        kill=job.kill,
        cpu_s=lambda: job.cpu_s(process),
        usage_now=lambda: (job.cpu_s(process), None),  # the job's accounting is live
        close=close,
        stdout=process.stdout,
        stderr=process.stderr,
        start=start,
        cpu_limited=lambda status: job.cpu_limited(status),
        peak_bytes=job.peak_bytes,
    )


def _start_posix(
    argv: list[str], env: dict[str, str], stdin: IO[bytes], cwd: Path, limits: Limits
) -> _Started:
    import signal

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
            pid = orphans.spawn(lambda: spawn(_OWN_SESSION))
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
        with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
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
            processes=_PROCESSES,
            stop_run=kill,
            look=look_and_sweep,
        ).start()

    def close() -> None:
        kill()
        done.wait(_KILLED_S)  # bounded; the watch pipe's close next tells the child to go
        os.close(watch_w)
        if pidfd is not None:
            os.close(pidfd)

    return _Started(
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


class _Capped:
    """Reads one stream to its end on a thread of its own, keeping at most ``cap`` bytes (after
    the child's ready byte, on stdout); past the cap it calls ``over`` and stops reading."""

    def __init__(self, stream: IO[bytes], cap: int, over: Callable[[], None], marked: bool):
        self.data = bytearray()
        self.ready = not marked
        self.ready_at = 0.0  # when the ready byte came: the script's clock starts there
        self.up = threading.Event()  # the ready byte came, or the stream ended without it
        self.over = False
        self._stream, self._cap, self._on_over, self._marked = stream, cap, over, marked
        self._lock = threading.Lock()
        self._ended = self._left = False
        self._thread = threading.Thread(target=self._read, daemon=True, name="grade-read")
        self._thread.start()

    def _read(self) -> None:
        first = self._marked
        try:
            with contextlib.suppress(OSError, ValueError):
                while chunk := self._stream.read(_CHUNK):
                    if first:
                        first = False
                        if chunk[:1] != _READY:
                            self.data += chunk  # not the child's: it failed before it was up
                            self.up.set()
                            continue
                        self.ready_at = time.monotonic()
                        self.ready, chunk = True, chunk[1:]
                        self.up.set()
                    self.data += chunk
                    if len(self.data) > self._cap:
                        del self.data[self._cap :]
                        self.over = True
                        self._on_over()
                        return
        finally:
            self.up.set()
            with self._lock:
                self._ended = True
                if self._left:  # the grader went on without it: the pipe is this thread's
                    self._stream.close()

    def join(self, within_s: float = _DRAIN_S) -> bytes:
        """What was read, once the stream ended or ``within_s`` passed: a process the run's
        kill did not reach (one that left its group, where no tree watch saw it) may hold the
        pipe open for ever, and the grader must not wait on it."""
        self._thread.join(within_s)
        with self._lock:
            if not self._ended:  # the reader, a daemon blocked on the pipe, closes it at its end
                self._left = True
                return bytes(self.data)
        self._stream.close()
        return bytes(self.data)


def live_usage(pid: int) -> tuple[float | None, float | None]:
    """The CPU time ``pid`` and its children used so far, and the longest one of their threads
    waited, runnable, for a CPU: both from /proc where the kernel says (Linux), else the CPU
    time from psutil (a dependency on macOS, which has no /proc); None where nothing can say."""
    if os.path.isdir(f"{procfs.PROC}/{pid}"):
        cpu, most = procfs.usage(pid)
        return cpu, most if procfs.waits_known() else None
    try:
        import psutil
    except ImportError:
        return None, None
    try:
        leader = psutil.Process(pid)
        total = 0.0
        for one in [leader, *leader.children(recursive=True)]:
            times = one.cpu_times()
            total += times.user + times.system
        return total, None
    except psutil.Error:
        return None, None


def live_cpu_known() -> bool:
    """Whether this platform's runs can be read for CPU time while they run (what lets a busy
    machine stretch their clock)."""
    if sys.platform == "win32" or os.path.isdir(procfs.PROC):
        return True
    try:
        import psutil  # noqa: F401
    except ImportError:
        return False
    return True


def _wait_stretched(started: _Started, begun: float, limit_s: float) -> tuple[int | None, float]:
    """The run's exit status, or None once it is past its limit of its own time, and how long
    it waited for a CPU: while it computes, however slowly this machine lets it, that wait
    stretches its clock (``timing.portable_waited``, up to ``MOST_STRETCH`` times the limit).
    What it used counts from now, when it is up: the interpreter's start is the machine's,
    and Wine counts that start and next to nothing after it, however a run spins."""
    cpu_at, queued_at = started.usage_now()

    def since(now: float | None, then: float | None) -> float | None:
        return None if now is None or then is None else max(0.0, now - then)

    def waited() -> float:
        cpu, queued = started.usage_now()
        wall = time.monotonic() - begun
        return portable_waited(since(cpu, cpu_at), wall, since(queued, queued_at))

    end = begun + limit_s
    while True:
        status = started.wait(end - time.monotonic())
        if status is not None:
            return status, 0.0
        now = time.monotonic()
        queued = waited()
        later = begun + deadline_s(limit_s, queued)
        if later - now < 0.005:
            return None, queued
        end = later


def _wait(started: _Started, limits: Limits, running: Running | None) -> Outcome:
    cap = limits.output_kb * 1024
    out = _Capped(started.stdout, cap, started.kill, marked=True)
    err = _Capped(started.stderr, cap, started.kill, marked=False)
    key = object()
    if running is not None:
        running.add_killer(key, started.kill)
    try:
        # the interpreter's start is the machine's time: the script's clock starts once it is
        # up (a child that is not up by the allowance is stopped: the grader's error)
        up_by = started.start + start_allowance_s(limits.time_s)
        out.up.wait(max(0.0, up_by - time.monotonic()))
        begun = out.ready_at if out.ready else started.start
        end = begun + limits.time_s if out.ready else up_by
        queued = 0.0  # what kept it from a CPU, read before the kill leaves nothing to ask
        if out.ready:
            status, queued = _wait_stretched(started, begun, limits.time_s)
        else:
            status = started.wait(end - time.monotonic())
        wall = time.monotonic() - begun
        timed_out = status is None and not (out.over or err.over)
        if not timed_out:
            queued = 0.0
        # the tree goes with its first process, or a child it left would hold the pipes open
        started.kill()
        if status is None:
            status = started.wait(_KILLED_S)
        stdout, stderr = out.join(), err.join()
        cpu = started.cpu_s()
        peak = started.peak_bytes()  # before close: a Job Object's figures go with its handle
    finally:
        if running is not None:
            running.remove_killer(key)
        started.close()
    if status is None:
        raise InternalError(f"a killed run did not end within {_KILLED_S:.0f} s")
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
        stderr += f"\ngrade: more than {_PROCESSES} processes at once; stopped\n".encode()
    elif started.hidden():
        stderr += b"\ngrade: a process of the run hid its memory from the grader; stopped\n"
    return Outcome(exit, stdout, stderr, "stdout" if out.over else "stderr" if err.over else None)


def _remove(base: Path) -> None:
    """Remove the run's folder; Windows refuses to delete a read-only file, so clear the flag.
    Best effort: the result is known by now."""

    def writable(func: Callable[..., object], path: str, _: object) -> None:
        with contextlib.suppress(OSError):
            os.chmod(path, stat.S_IWRITE | stat.S_IREAD | stat.S_IEXEC)
            func(path)

    if os.name == "posix":
        remove_tree(base)
        return
    with contextlib.suppress(OSError):
        if sys.version_info >= (3, 12):
            shutil.rmtree(base, onexc=writable)
        else:
            shutil.rmtree(base, onerror=writable)
