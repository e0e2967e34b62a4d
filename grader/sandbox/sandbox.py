"""The sandbox: which isolation layers this machine offers, and running one script under them.

``Sandbox.create`` probes the layers once with a throw-away child; ``Sandbox.run`` then runs a
Python script with every available layer (see ``_child.py`` for the order they go on in).
"""

from __future__ import annotations

import ast
import marshal
import math
import os
import signal
import site
import stat
import sys
import tempfile
import threading
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import InternalError
from ..text import decode, last_line
from .process import Running, read_capped, spawn_and_wait
from .types import EXPOSED, Layer, LimitHit, Limits, RunResult, SandboxMode

_CHILD = Path(__file__).with_name("_child.py")
_NOFILE = 256
_NPROC = 64  # tasks, threads included, inside the run's own user namespace
_UID_BASE = 1_500_000_000  # far above any real account; each grader process takes its own block
# numpy and friends start one thread per core and ~40 MB each; one is plenty for exercises.
_THREAD_VARS = (
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
)
_SYSTEM_READ = (
    "/usr/lib",
    "/usr/lib64",
    "/lib",
    "/lib64",
    "/usr/local/lib",
    "/etc/ld.so.cache",
    "/etc/localtime",
    "/usr/share/zoneinfo",
    "/sys/devices/system/cpu",
    "/dev/urandom",
)
_DEVICES_RW = ("/dev/null",)
_ALWAYS_HIDDEN = ("/tmp", "/dev/shm")
# Never covered, whatever asks: a HOME of "/" (service accounts) must not blank the machine.
_NEVER_HIDDEN = frozenset(
    {
        "/",
        "/usr",
        "/etc",
        "/lib",
        "/lib64",
        "/bin",
        "/sbin",
        "/var",
        "/opt",
        "/proc",
        "/sys",
        "/dev",
    }
)
_MEMORY_ERROR = "MemoryError"  # Python's, and numpy's _ArrayMemoryError


class SandboxUnavailable(InternalError):
    """``--sandbox strict`` on a machine that lacks a layer."""


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


def user_site() -> str | None:
    """The grader's user site-packages (``pip install --user``), which the child's ``-I`` and its
    HOME inside the work dir would otherwise hide: a student's numpy may live there."""
    path = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    return path if path and os.path.isdir(path) else None


def python_paths() -> list[str]:
    """The running interpreter's installation and site-packages: what a submission may read."""
    paths = {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sys.base_exec_prefix,
        *site.getsitepackages(),
    }
    return sorted(os.path.realpath(p) for p in paths if os.path.isdir(p))


def others_can_read(path: str) -> bool:
    """Whether a uid with no special rights can reach and read ``path``."""
    real = Path(os.path.realpath(path))
    if any(not os.stat(p).st_mode & stat.S_IXOTH for p in real.parents):
        return False
    mode = real.stat().st_mode
    need = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
    return mode & need == need


class _UidPool:
    """Unused uids for concurrent runs; a returned uid goes to the back of the line, so quick
    consecutive runs do not share a uid whose killed processes are still being reaped."""

    def __init__(self, base: int) -> None:
        self._lock = threading.Lock()
        self._free: deque[int] = deque()
        self._next = base

    def take(self) -> int:
        with self._lock:
            if self._free:
                return self._free.popleft()
            self._next += 1
            return self._next

    def give(self, uid: int) -> None:
        with self._lock:
            self._free.append(uid)


@dataclass(frozen=True)
class Sandbox:
    mode: SandboxMode
    layers: frozenset[Layer]
    missing: Mapping[Layer, str]
    hide: tuple[str, ...] = ()
    _uids: _UidPool = field(
        default_factory=lambda: _UidPool(_UID_BASE + (os.getpid() % 4096) * 4096),
        repr=False,
        compare=False,
    )
    _running: Running = field(default_factory=Running, repr=False, compare=False)

    @classmethod
    def create(
        cls, mode: SandboxMode = SandboxMode.AUTO, *, hide: Iterable[Path | str] = ()
    ) -> Sandbox:
        """Probe the layers; in strict mode, ``SandboxUnavailable`` if a required one is missing."""
        hidden = tuple(str(p) for p in hide)
        if mode is SandboxMode.OFF:
            return cls(mode, frozenset(), {}, hidden)
        wanted: list[Layer] = [layer for layer in Layer if layer is not Layer.UID]
        if sys.platform == "linux":
            probed = cls(mode, frozenset(wanted), {}, hidden)._probe()
        else:  # raw Linux syscall numbers mean something else elsewhere: never try them
            probed = dict.fromkeys(wanted, f"not available on {sys.platform}")
        layers: set[Layer] = {layer for layer in wanted if probed.get(layer) == "ok"}
        missing: dict[Layer, str] = {
            layer: probed.get(layer, "not reached") for layer in wanted if layer not in layers
        }
        if os.geteuid() == 0:  # switching uid needs root, and an interpreter others can read
            unreadable = [p for p in python_paths() if not others_can_read(p)]
            if unreadable:
                missing[Layer.UID] = f"{unreadable[0]} is not readable by other uids"
            else:
                layers.add(Layer.UID)
        required = set(missing) - {Layer.UID}  # the other layers bind root too
        if mode is SandboxMode.STRICT and required:
            why = "; ".join(f"{layer}: {missing[layer]}" for layer in sorted(required))
            raise SandboxUnavailable(f"--sandbox strict: this machine lacks {why}")
        return cls(mode, frozenset(layers), missing, hidden)

    def hiding(self, folders: Iterable[Path | str]) -> Sandbox:
        """This sandbox (same layers, same runs in progress) hiding ``folders`` too; no probe."""
        more = tuple(str(p) for p in folders)
        return replace(self, hide=tuple(dict.fromkeys((*self.hide, *more))))

    def cancel(self) -> None:
        """End every run in progress and refuse new ones (Ctrl-C in a batch)."""
        self._running.cancel()

    def notice(self) -> str | None:
        """One line for stderr saying what is not isolated, or None when nothing is missing."""
        if self.mode is SandboxMode.OFF:
            return (
                "warning: --sandbox off: submissions can read the answers, use the network "
                "and start processes; use it only for trusted code"
            )
        if not self.missing:
            return None
        parts = [f"{layer} ({EXPOSED[layer]})" for layer in sorted(self.missing)]
        return "sandbox: without " + ", ".join(parts)

    def _probe(self) -> dict[str, str]:
        with tempfile.TemporaryDirectory(prefix="grade-probe-") as tmp:
            script = Path(tmp) / "probe.py"
            script.write_text("")
            result, failure = self._run(
                sys.executable, str(script), b"", Limits(time_s=10), probe=True, uid=None
            )
        try:
            found: dict[str, str] = ast.literal_eval(result.stdout.decode() or "{}")
        except (ValueError, SyntaxError):
            found = {}
        return found or dict.fromkeys(self.layers, failure or "the probe did not start")

    def run(self, argv: Sequence[str], *, stdin: bytes, limits: Limits) -> RunResult:
        """Run ``argv`` = ``[python, script]`` with ``stdin`` as input, in a fresh directory."""
        if len(argv) != 2:
            raise InternalError(f"the sandbox runs [python, script], not {list(argv)}")
        python, script = argv
        if self._running.cancelled:
            raise InternalError("cancelled")
        uid = None
        if Layer.UID in self.layers and others_can_read(script):
            uid = self._uids.take()
        try:
            result, failure = self._run(python, script, stdin, limits, probe=False, uid=uid)
        finally:
            if uid is not None:
                self._uids.give(uid)
        if failure:
            raise InternalError(f"the sandbox did not start: {failure}")
        return result

    def _run(
        self,
        python: str,
        script: str,
        stdin: bytes,
        limits: Limits,
        *,
        probe: bool,
        uid: int | None,
    ) -> tuple[RunResult, str]:
        if not os.access(python, os.X_OK):
            # Caught here because after exec the child's failure would look like the student's.
            raise InternalError(f"cannot run {python}: not an executable file")
        cap = limits.output_kb * 1024
        script = os.path.abspath(script)
        with tempfile.TemporaryDirectory(prefix="grade-run-") as tmp:
            base = Path(tmp)
            base.chmod(0o711)  # a run's own uid must reach its work dir, not list the others
            work = base / "work"
            work.mkdir(mode=0o700)
            if uid is not None:
                os.chown(work, uid, uid)
            (base / "stdin").write_bytes(stdin)
            extra_site = user_site()
            read = [*python_paths(), *([extra_site] if extra_site else []), *_SYSTEM_READ, script]
            config = {
                "user_site": extra_site,
                "workdir": str(work),
                "submission": script,
                "probe": probe,
                "layers": sorted(
                    str(x) for x in self.layers - ({Layer.UID} if uid is None else set())
                ),
                "uid": uid,
                "gid": uid,
                "read": read,
                "devices": list(_DEVICES_RW),
                "hide": _hideable([*_ALWAYS_HIDDEN, *self.hide, str(Path.home())]),
                "keep": [str(work), *read],
                # One byte over the cap so that "exactly at the limit" and "over it" differ.
                "cpu_s": math.ceil(limits.time_s) + 1,
                "data_bytes": limits.memory_mb << 20,
                "fsize_bytes": cap + 1,
                "nofile": _NOFILE,
                "nproc": _NPROC,
            }
            done = spawn_and_wait(
                [python, "-I", str(_CHILD), marshal.dumps(config).hex()],
                env=child_environment(work, os.environ),
                stdin=base / "stdin",
                stdout=base / "stdout",
                stderr=base / "stderr",
                timeout_s=limits.time_s,
                also_kill_uid=uid,
                running=self._running,
            )
            stdout, out_over = read_capped(base / "stdout", cap)
            stderr, err_over = read_capped(base / "stderr", cap)
        failure = "" if done.sandbox_ready or done.timed_out else _tail(stderr)
        sig = -done.status if done.status < 0 else None
        hit: LimitHit | None = None
        if done.timed_out:
            hit = LimitHit.WALL_TIME
        elif sig == signal.SIGXCPU or (sig == signal.SIGKILL and done.cpu_s >= limits.time_s):
            hit = LimitHit.CPU_TIME  # the soft CPU limit, or the hard one as its backstop
        elif out_over or err_over or sig == signal.SIGXFSZ:
            hit = LimitHit.OUTPUT
        elif done.status != 0 and _MEMORY_ERROR in _tail(stderr):
            hit = LimitHit.MEMORY
        result = RunResult(
            exit_code=None if sig is not None else done.status,
            signal=sig,
            wall_s=done.wall_s,
            stdout=stdout,
            stderr=stderr,
            limit_hit=hit,
        )
        return result, failure


def _hideable(folders: list[str]) -> list[str]:
    return [f for f in folders if os.path.realpath(f) not in _NEVER_HIDDEN]


def _tail(stderr: bytes) -> str:
    return last_line(decode(stderr))
