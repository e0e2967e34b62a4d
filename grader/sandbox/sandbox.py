"""The sandbox: which isolation layers this machine offers, and running one script under them.

``Sandbox.create`` probes the layers once with a throw-away child; ``Sandbox.run`` then runs a
Python script with every available layer (see ``_child.py`` for the order they go on in).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib.machinery import SourceFileLoader
from pathlib import Path

from ..judging.errors import InternalError, MachineBusy
from ..judging.printed import decode, last_line
from ..judging.runs import Clock, LimitHit, Limits, RunResult
from ..judging.timing import cpu_cap_s, time_message, time_verdict
from . import cgroups, portable
from ._protocol import ChildConfig, limit_fields
from .allowed import child_environment, others_can_read, python_paths, readable, user_site
from .forkserver import ForkServer, ForkServers, ServerSpec, fork_unavailable, shared_servers
from .process import Exit, Running, read_capped, spawn_and_wait
from .runfolders import new_run_folder, run_parent
from .types import (
    EXPOSED,
    EXPOSED_NAMESPACES_WITHOUT_LANDLOCK,
    FIXES,
    Isolation,
    Layer,
    SandboxMode,
)
from .uids import UidPool

_CHILD = Path(__file__).with_name("_child.py")
_NOFILE = 256
_NPROC = 64  # tasks, threads included, inside the run's own user namespace
_DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom")
_MEMORY_ERROR = "MemoryError"  # Python's, and numpy's _ArrayMemoryError
_PAGE = 4096  # what a tmpfs file of n bytes takes: whole pages
# Signals that end a run, by number (Windows has none of them: its runs end by exit status)
_SIGXCPU = getattr(signal, "SIGXCPU", -1)
_SIGKILL = getattr(signal, "SIGKILL", -1)
_SIGXFSZ = getattr(signal, "SIGXFSZ", -1)


class SandboxUnavailable(InternalError):
    """``--sandbox strict`` on a machine that lacks a layer."""


def _not_dumpable() -> None:
    """Where a run shares the grader's uid and no Landlock stops it, it could read the grader's
    memory (CI tokens) through /proc/PID/mem: a process that is not dumpable refuses that."""
    from .prctl import PR_SET_DUMPABLE, prctl

    prctl(PR_SET_DUMPABLE, 0)


LANDLOCK_ABI_MAX_ENV = "GRADE_LANDLOCK_ABI_MAX"
# Probe results, once per process (a library or a test suite creates many sandboxes)
_PROBED: dict[tuple[int, int, frozenset[Layer]], dict[str, str]] = {}


def _landlock_abi_max() -> int:
    """Use no newer Landlock ABI than this: how the tests stand in for an older kernel."""
    try:
        return int(os.environ.get(LANDLOCK_ABI_MAX_ENV, "999"))
    except ValueError:
        return 999


@functools.lru_cache(maxsize=1)
def _compiled() -> dict[str, object]:
    """The child's layer modules' code, once per grader instead of once per run: from their
    cached bytecode (``__pycache__``, checked against the source as an import checks it), not
    compiled from source at every grader's start."""
    folder = Path(__file__).parent
    found: dict[str, object] = {}
    for name in ("landlock", "namespaces", "prctl", "seccomp", "syscalls"):
        fullname = f"{__package__}.{name}"
        found[name] = SourceFileLoader(fullname, str(folder / f"{name}.py")).get_code(fullname)
    return found


@dataclass(frozen=True)
class Sandbox:
    mode: SandboxMode
    layers: frozenset[Layer]
    missing: Mapping[Layer, str]
    hide: tuple[str, ...] = ()  # never visible, even inside a path the run may read
    isolation: Isolation = Isolation.FRESH
    fresh_because: str = ""  # why runs are not forked from a server, when fork was asked
    preload: tuple[str, ...] = ()  # modules the fork server imports once for every run
    portable: bool = False  # runs go through portable.py: limits, no isolation (not Linux)
    _uids: UidPool = field(default_factory=UidPool, repr=False, compare=False)
    _running: Running = field(default_factory=Running, repr=False, compare=False)
    _servers: ForkServers = field(default_factory=shared_servers, repr=False, compare=False)

    @classmethod
    def create(
        cls,
        mode: SandboxMode = SandboxMode.AUTO,
        *,
        hide: Iterable[Path | str] = (),
        isolation: Isolation = Isolation.FORK,
        preload: Iterable[str] = (),
        warm: int = 0,
    ) -> Sandbox:
        """Probe the layers; in strict mode, ``SandboxUnavailable`` if a required one is missing.

        ``isolation`` fork falls back to fresh where forking is unsafe, saying why. ``warm``
        fork servers preloading ``preload`` start before the probe, so that both overlap."""
        hidden = tuple(str(p) for p in hide)
        modules = tuple(dict.fromkeys(preload))
        if sys.platform == "linux":  # every runner here, portable and --sandbox off included
            _not_dumpable()
        if portable.wanted():  # before anything below touches a Linux-only call
            if mode is SandboxMode.STRICT:
                raise SandboxUnavailable(portable.strict_refusal())
            return cls(mode, frozenset(), {}, hidden, Isolation.FRESH, "", modules, portable=True)
        why = fork_unavailable() if isolation is Isolation.FORK else None
        chosen = Isolation.FRESH if why else isolation
        if chosen is Isolation.FORK:
            cls.start_servers(modules, warm)
        if mode is SandboxMode.OFF:
            return cls(mode, frozenset(), {}, hidden, chosen, why or "", modules)
        wanted: list[Layer] = [layer for layer in Layer if layer is not Layer.UID]
        if sys.platform == "linux":
            key = (os.geteuid(), _landlock_abi_max(), frozenset(wanted))
            if key not in _PROBED:  # what this kernel offers does not change while we run
                _PROBED[key] = cls(mode, frozenset(wanted), {}, hidden)._probe()
            probed = _PROBED[key]
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
        # As root without a uid of its own, the run is uid 1000 of its user namespace with no
        # capability left: strict accepts that, never real root.
        required = set(missing) - ({Layer.UID} if Layer.NAMESPACES in layers else set())
        if mode is SandboxMode.STRICT and required:
            why = "; ".join(f"{layer}: {missing[layer]}" for layer in sorted(required))
            raise SandboxUnavailable(f"--sandbox strict: this machine lacks {why}")
        return cls(mode, frozenset(layers), missing, hidden, chosen, why or "", modules)

    def hiding(self, folders: Iterable[Path | str]) -> Sandbox:
        """This sandbox (same layers, same runs in progress) hiding ``folders`` too; no probe."""
        more = tuple(str(p) for p in folders)
        return replace(self, hide=tuple(dict.fromkeys((*self.hide, *more))))

    def fresh(self) -> Sandbox:
        """This sandbox starting a new interpreter for each run."""
        return replace(self, isolation=Isolation.FRESH)

    def preloading(self, modules: Iterable[str]) -> Sandbox:
        """This sandbox with a fork server that imports ``modules`` once for every run."""
        return replace(self, preload=tuple(dict.fromkeys((*self.preload, *modules))))

    def cancel(self) -> None:
        """End every run in progress and refuse new ones (Ctrl-C in a batch)."""
        self._running.cancel()

    def close(self) -> None:
        """Stop the fork servers now (else they stop when the grader ends, however it ends)."""
        self._servers.close()

    def notice(self) -> str | None:
        """One line for stderr saying what is not isolated, why, and how to fix it; or None."""
        fresh = f"; runs start a fresh interpreter each: {self.fresh_because}"
        if self.portable and self.mode is not SandboxMode.OFF:
            return portable.notice()
        if self.mode is SandboxMode.OFF:
            return (
                "warning: --sandbox off: submissions can read the answers, use the network "
                "and start processes; use it only for trusted code"
            ) + (fresh if self.fresh_because else "")
        missing = dict(self.missing)
        if Layer.NAMESPACES in self.layers:
            missing.pop(Layer.UID, None)  # uid 1000 of its own namespace, no capability left
        else:
            missing.pop(Layer.MOUNTS, None)  # no root of its own follows from no namespaces
        if not missing:
            return f"note: {fresh[2:]}" if self.fresh_because else None
        lost = ", ".join(
            EXPOSED_NAMESPACES_WITHOUT_LANDLOCK
            if x is Layer.NAMESPACES and Layer.LANDLOCK in missing
            else EXPOSED[x]
            for x in sorted(missing)
        )
        why = "; ".join(f"{x}: {missing[x]}" for x in sorted(missing))
        fixes = "; ".join(FIXES[x] for x in sorted(missing))
        said = f"isolation is reduced on this machine: {lost}, because {why}; to fix: {fixes}"
        return said + (fresh if self.fresh_because else "")

    def brief(self) -> str | None:
        """``notice`` in one short line for a student's own machine, where a kernel setting is
        not theirs to change for practice; None where there is nothing to say."""
        if self.portable or self.mode is SandboxMode.OFF or self.notice() is None:
            return self.notice()
        names = {
            Layer.NAMESPACES: "namespaces",
            Layer.LANDLOCK: "Landlock",
            Layer.SECCOMP: "seccomp",
        }
        held = [name for layer, name in names.items() if layer in self.layers]
        if not held:
            return (
                "runs are not isolated on this machine: fine for practice with your own code "
                "(-v says why)"
            )
        listed = ", ".join(held[:-1]) + f" and {held[-1]}" if len(held) > 1 else held[0]
        return f"runs are isolated by {listed} only: fine for practice (-v says what is missing)"

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

    def run(
        self,
        argv: Sequence[str],
        *,
        stdin: bytes,
        limits: Limits,
        files: Mapping[str, bytes] | None = None,
        source: bytes | None = None,
    ) -> RunResult:
        """Run ``argv`` = ``[python, script, *args]`` with ``stdin`` as input, in a fresh
        directory holding ``files`` (name to content: a checker's input and expected output).
        ``source``: the script's text as the caller read it once (the run still sees it at
        ``script``); else the script is read now, never through a link at its name."""
        if len(argv) < 2:
            raise InternalError(f"the sandbox runs [python, script, *args], not {list(argv)}")
        python, script, *args = argv
        if self._running.cancelled:
            raise InternalError("cancelled")
        if not os.access(python, os.X_OK):
            # Caught here because after exec the child's failure would look like the student's.
            raise InternalError(f"cannot run {python}: not an executable file")
        if self.portable:
            done = portable.run(
                python,
                script,
                stdin,
                limits,
                args=args,
                files=files,
                text=source,
                running=self._running,
            )
            result, failure = _result(
                done.exit, done.stdout, done.stderr, done.over, done.exit.cpu_s, limits
            )
            if failure or not done.exit.sandbox_ready:
                why = failure or f"{python} exited with status {done.exit.status} first"
                raise InternalError(f"the run did not start: {why}")
            return result
        uid = self._uids.take() if Layer.UID in self.layers else None
        forked = self.isolation is Isolation.FORK
        try:
            with self._lease(python) if forked else contextlib.nullcontext() as server:
                result, failure = self._run(
                    python,
                    script,
                    stdin,
                    limits,
                    probe=False,
                    uid=uid,
                    args=args,
                    files=files or {},
                    server=server,
                    text=source,
                )
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
        args: Sequence[str] = (),
        files: Mapping[str, bytes] | None = None,
        server: ForkServer | None = None,
        text: bytes | None = None,
    ) -> tuple[RunResult, str]:
        """One run: forked from ``server`` (leased by the caller), or a fresh interpreter.
        Lay out its folder, tell its child what to do, wait for it, and say what happened."""
        cap = limits.output_kb * 1024
        script = os.path.abspath(script)
        bounded = self.mode is SandboxMode.OFF or Layer.MOUNTS in self.layers
        folder = new_run_folder(run_parent(writes_bounded=bounded))
        base = folder.path
        tasks = _NPROC if self.layers else None
        # a fork server's children are born in its group; a fresh run joins a new one (which,
        # with --sandbox off too, only counts its tasks and sweeps what it leaves)
        group = server.group if server is not None else cgroups.create(tasks)
        cpu_before = cgroups.cpu_seconds(group) if server is not None and group else 0.0
        layers = {str(x) for x in self.layers - ({Layer.UID} if uid is None else set())}
        try:
            source = _lay_out(base, script, stdin, files or {}, uid, text)
            config = self._config(python, base, script, source, limits, layers, probe, uid)
            config = _room_for(config.replace(args=tuple(args), files=dict(files or {})))
            if server is not None:
                # the child's parent, which it dies with; the server has the layers loaded
                config = config.replace(parent=server.pid, compiled={})
                server.cap(tasks)  # its group holds the child from birth
            # 0600 and the grader's: the child gets it already open, as fd 4
            (base / "config").write_bytes(config.to_wire())
            done = spawn_and_wait(
                [python, "-I", str(_CHILD)],
                env=child_environment(base / "work", os.environ),
                stdin=base / "stdin",
                stdout=base / "stdout",
                stderr=base / "stderr",
                config=base / "config",
                timeout_s=limits.time_s,
                also_kill_uid=uid,
                running=self._running,
                server=server,
                group=group if server is None else None,
                relay="namespaces" in layers,
            )
            stdout, out_over = read_capped(base / "stdout", cap)
            stderr, err_over = read_capped(base / "stderr", cap)
            # A run killed at its limit: its cgroup counts all it used, where the kernel keeps
            # that (v2); else what /proc said of its processes just before (spawn_and_wait)
            cpu: float | None = done.cpu_s
            if done.timed_out:
                total = cgroups.cpu_seconds(group) if group is not None else None
                if total is not None:
                    cpu = total - (cpu_before or 0.0)
            # a fresh run's own group counts all of its tree, what it did not wait for too; a
            # fork server's group is shared by its runs and the server: its rusage says then
            peak = cgroups.memory_peak(group) if server is None and group is not None else None
            if peak is not None:
                done = replace(done, peak_bytes=peak)
        finally:
            folder.remove()
            if server is not None:
                server.sweep()
            elif group is not None:
                cgroups.remove(group)
        over = "stdout" if out_over else "stderr" if err_over else None
        return _result(done, stdout, stderr, over, cpu, limits)

    def _config(
        self,
        python: str,
        base: Path,
        script: str,
        source: Path,
        limits: Limits,
        layers: set[str],
        probe: bool,
        uid: int | None,
    ) -> ChildConfig:
        """What the child is told: where things are, what it may see, its limits."""
        read, listed = readable(self.hide)
        return ChildConfig(
            parent=os.getpid(),
            user_site=user_site() or "",
            workdir=str(base / "work"),
            root=str(base / "root"),
            submission=script,
            source=str(source),
            args=(),
            files={},
            probe=probe,
            layers=tuple(sorted(layers | ({"capabilities"} if layers else set()))),
            uid=uid,
            gid=uid,
            read=tuple(read),
            list=tuple(listed),
            devices=tuple(_DEVICES),
            **limit_fields(limits, cpu_cap_s(limits.time_s)),
            nofile=_NOFILE,
            nproc=_NPROC,
            # code objects are marshalled for this interpreter's version only
            compiled=_compiled() if layers and python == sys.executable else {},
            landlock_abi_max=_landlock_abi_max(),
        )

    def _server(self, python: str) -> ServerSpec:
        env = child_environment(Path("/"), os.environ)
        return ServerSpec(python, self.preload, env, user_site())

    def _lease(self, python: str) -> contextlib.AbstractContextManager[ForkServer]:
        return self._servers.lease(self._server(python))

    @classmethod
    def start_servers(cls, preload: Iterable[str], count: int) -> None:
        """Start the fork servers that ``count`` runs at once of an exercise preloading
        ``preload`` will need, before anything else (a later ``create`` finds them idle): their
        start-up overlaps what the caller does meanwhile. Nothing where runs cannot fork."""
        if not portable.wanted() and fork_unavailable() is None:
            modules = tuple(dict.fromkeys(preload))
            cls(SandboxMode.AUTO, frozenset(), {}, isolation=Isolation.FORK, preload=modules).warm(
                count
            )

    def warm(self, runs: int) -> None:
        """Start the fork servers that ``runs`` runs at once need, now, so that they are ready
        (numpy imported) by the first run; nothing where runs start fresh."""
        if self.isolation is Isolation.FORK:
            self._servers.warm(self._server(sys.executable), count=runs)


def _lay_out(
    base: Path,
    script: str,
    stdin: bytes,
    files: Mapping[str, bytes],
    uid: int | None,
    text: bytes | None,
) -> Path:
    """The run's folder: its work dir (its own uid's, where it has one), the folder its root
    is built in, its stdin, and the grader's copy of the script, which is what it reads."""
    base.chmod(0o711)  # a run's own uid must reach its work dir, not list the others
    work = base / "work"
    work.mkdir(mode=0o700)
    (base / "root").mkdir(mode=0o700)
    if any("/" in name or name.startswith(".") for name in files):
        raise InternalError(f"a run's files have plain names only: {sorted(files)}")
    if uid is not None:
        os.chown(work, uid, uid)
    # The run reads the grader's copy: the original may sit in a folder its uid cannot
    # enter, and the run must not need to (tracebacks still name the original).
    source = base / "submission.py"
    if text is not None:
        source.write_bytes(text)
    else:
        _copy_unlinked(script, source)
    # The folder can be reached by anyone (0711: a run's own uid must get to its work dir) and
    # its name shows in a listing of /tmp: its files are the run's and the grader's alone, else
    # a user of the machine could read a hidden case's input, or a submission, while it runs.
    source.chmod(0o400)
    if uid is not None:
        os.chown(source, uid, uid)
    (base / "stdin").write_bytes(stdin)
    (base / "stdin").chmod(0o600)  # opened by the grader's side, before the run's uid is set
    return source


def _room_for(config: ChildConfig) -> ChildConfig:
    """The files the child writes before the script starts (a checker's input and expected
    output) are the grader's, never the run's output: RLIMIT_FSIZE lets the largest be written,
    and the work dir holds them on top of the run's own disk and inodes."""
    if not config.files:
        return config
    sizes = [len(content) for content in config.files.values()]
    pages = sum(-(-size // _PAGE) * _PAGE for size in sizes)
    return config.replace(
        fsize_bytes=max(config.fsize_bytes, max(sizes) + 1),
        work_bytes=config.work_bytes + pages,
        work_inodes=config.work_inodes + len(sizes),
    )


def _result(
    done: Exit, stdout: bytes, stderr: bytes, over: str | None, cpu: float | None, limits: Limits
) -> tuple[RunResult, str]:
    """What the run's end means (and why the sandbox failed to start, if it did): which limit
    ended it, as ``timing`` rules for the clock; a machine too busy to give it its time is
    the grader's error."""
    failure = "" if done.sandbox_ready else _tail(stderr)
    if done.timed_out and not done.sandbox_ready:  # never reached the submission
        failure = f"the sandbox was not up within {done.wall_s:.1f} s"
    sig = -done.status if done.status < 0 else None
    clock = Clock(
        wall_s=done.wall_s,
        queued_s=done.queued_s,
        cpu_s=done.cpu_s,
        stopped=done.timed_out,
        cpu_signal=done.cpu_limited or sig == _SIGXCPU,
        killed=sig == _SIGKILL,
    )
    hit = time_verdict(limits.time_s, clock)
    if hit is LimitHit.BUSY:
        if done.sandbox_ready:
            raise MachineBusy(time_message(hit, limits.time_s, clock))
        hit = None  # never up: the failure above says so
    if hit is None and (over is not None or sig == _SIGXFSZ):
        hit = LimitHit.OUTPUT
    elif hit is None and (
        done.over_limit == "memory" or (done.status != 0 and _MEMORY_ERROR in _tail(stderr))
    ):
        hit = LimitHit.MEMORY
    result = RunResult(
        exit_code=None if sig is not None else done.status,
        signal=sig,
        wall_s=done.wall_s,
        stdout=stdout,
        stderr=stderr,
        limit_hit=hit,
        cpu_s=None if cpu is None else round(cpu, 3),
        over=over,
        queued_s=round(done.queued_s, 3),
        peak_bytes=done.peak_bytes,
    )
    return result, failure


def _copy_unlinked(script: str, copy: Path) -> None:
    """Copy ``script``, never through a link at its own name: a submission checked when a batch
    listed it may have been swapped since for a link to a file its student cannot read."""
    try:
        fd = os.open(script, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as exc:
        why = "is a symbolic link now" if os.path.islink(script) else exc.strerror
        raise InternalError(f"cannot read the submission {script}: {why}") from exc
    with os.fdopen(fd, "rb") as src, open(copy, "wb") as dst:
        shutil.copyfileobj(src, dst)


def _tail(stderr: bytes) -> str:
    return last_line(decode(stderr))
