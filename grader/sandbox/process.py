"""Run one command in a fresh directory with limits, a clean environment and capped output.

The child is started with ``posix_spawn`` (safe while the grader runs cases on threads) through
``_launch.py``, which applies the rlimits in the child itself and then execs the command. Output
goes to regular files capped by RLIMIT_FSIZE: a flood of output costs neither memory nor a deadlock.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import select
import signal
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..errors import InternalError
from .types import LimitHit, Limits, RunResult

_LAUNCHER = Path(__file__).with_name("_launch.py")
_NOFILE = 256
# numpy and friends start one thread per core and ~40 MB each; one is plenty for exercises.
_THREAD_VARS = (
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
)
_MEMORY_ERROR = re.compile(rb"^(?:[\w.]+\.)?\w*MemoryError\b", re.MULTILINE)


def child_environment(workdir: Path, parent: Mapping[str, str]) -> dict[str, str]:
    """An allow-list: nothing of the grader's environment (CI tokens!) reaches the submission."""
    env = {
        "PATH": parent.get("PATH", os.defpath),
        "HOME": str(workdir),
        "TMPDIR": str(workdir),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONUTF8": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",  # set iteration order must not make a verdict flaky
    }
    env.update(dict.fromkeys(_THREAD_VARS, "1"))
    return env


def run(
    argv: Sequence[str],
    *,
    stdin: bytes,
    limits: Limits,
    environ: Mapping[str, str] | None = None,
) -> RunResult:
    """Run ``argv`` with ``stdin`` as its input, in a fresh temporary working directory."""
    if not os.access(argv[0], os.X_OK):
        # Caught here because after exec the child's failure would look like the student's.
        raise InternalError(f"cannot run {argv[0]}: not an executable file")
    with tempfile.TemporaryDirectory(prefix="grade-run-") as tmp:
        base = Path(tmp)
        work = base / "work"
        work.mkdir()
        paths = {name: base / name for name in ("stdin", "stdout", "stderr")}
        paths["stdin"].write_bytes(stdin)
        cap = limits.output_kb * 1024
        launch = [
            sys.executable,
            "-I",
            "-S",
            str(_LAUNCHER),
            str(work),
            str(math.ceil(limits.time_s) + 1),
            str(limits.memory_mb * 1024 * 1024),
            # One byte over the cap so that "exactly at the limit" and "over it" can be told apart.
            str(cap + 1),
            str(_NOFILE),
            "--",
            *argv,
        ]
        out_flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, str(paths["stdin"]), os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, str(paths["stdout"]), out_flags, 0o600),
            (os.POSIX_SPAWN_OPEN, 2, str(paths["stderr"]), out_flags, 0o600),
        ]
        env = child_environment(work, os.environ if environ is None else environ)
        start = time.monotonic()
        try:
            pid = os.posix_spawn(sys.executable, launch, env, file_actions=actions, setsid=True)
        except OSError as exc:
            raise InternalError(f"cannot start {argv[0]}: {exc}") from exc
        try:
            timed_out = not _wait_for_exit(pid, limits.time_s)
            wall = time.monotonic() - start
        finally:
            # The child is a zombie or still running, so its pid (= its group id) cannot be reused
            # yet: killing the group also ends whatever it left behind.
            _kill_group(pid)
            _, status, usage = os.wait4(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        stdout, out_over = _read_capped(paths["stdout"], cap)
        stderr, err_over = _read_capped(paths["stderr"], cap)
    sig = -code if code < 0 else None
    cpu = usage.ru_utime + usage.ru_stime
    hit: LimitHit | None = None
    if timed_out:
        hit = LimitHit.WALL_TIME
    elif sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu >= limits.time_s):
        hit = LimitHit.CPU_TIME
    elif out_over or err_over or sig == signal.SIGXFSZ:
        hit = LimitHit.OUTPUT
    elif code != 0 and _MEMORY_ERROR.search(stderr[-4096:]):
        hit = LimitHit.MEMORY
    return RunResult(
        exit_code=None if sig is not None else code,
        signal=sig,
        wall_s=wall,
        cpu_s=cpu,
        max_rss_kb=usage.ru_maxrss,
        stdout=stdout,
        stderr=stderr,
        limit_hit=hit,
    )


def _wait_for_exit(pid: int, timeout_s: float) -> bool:
    """True if ``pid`` exited within the timeout. Leaves it unreaped."""
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        return _poll_for_exit(pid, timeout_s)
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(max(0, int(timeout_s * 1000))))
    finally:
        os.close(fd)


def _poll_for_exit(pid: int, timeout_s: float) -> bool:
    # Fallback where pidfd is missing (macOS, old kernels): short sleeps, never growing ones.
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        if info is not None:
            return True
        time.sleep(0.002)
    return False


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _read_capped(path: Path, cap: int) -> tuple[bytes, bool]:
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            return f.read(cap), size > cap
    except FileNotFoundError:
        return b"", False
