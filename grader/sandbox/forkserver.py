"""The grader's side of the fork server (``_forkserver.py``): start it, ask it for a child per
run, and have it reap the child once the run is over.

A run's child then is a fork of an interpreter that has started and imported the exercise's
``preload`` modules once, instead of a new interpreter per case: the same sandbox, without the
~20 ms of start-up and the ~80 ms of ``import numpy`` per run.
"""

from __future__ import annotations

import array
import atexit
import contextlib
import marshal
import os
import select
import signal
import socket
import sys
import threading
import weakref
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..judging.errors import InternalError
from . import cgroups, orphans
from .process import peak_from_rusage

_SERVER = Path(__file__).with_name("_forkserver.py")
CONTROL_FD = 3
_ANSWER_S = 60.0  # the server answers at once; this bounds a stopped or stuck one
_CLOSE_S = 5.0  # to finish its imports and see its control socket closed


def fork_unavailable() -> str | None:
    """Why runs cannot be forked from a server here, or None."""
    if sys.platform != "linux":
        return f"forking a started interpreter is not safe on {sys.platform}"
    if not hasattr(os, "pidfd_open"):
        return "this Python has no os.pidfd_open"
    try:
        os.close(os.pidfd_open(os.getpid()))
    except OSError as exc:
        return f"this kernel has no pidfd_open ({exc.strerror})"
    return None


@dataclass(frozen=True)
class ServerSpec:
    """What a fork server is started with: servers of equal specs serve each other's runs."""

    python: str
    preload: tuple[str, ...]
    env: Mapping[str, str]  # the runs' allow-listed environment (no workdir of its own yet)
    user_site: str | None

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        return self.python, self.preload


@dataclass(frozen=True)
class Child:
    pid: int
    pidfd: int
    reply: socket.socket


class ForkServer:
    """One server, started by the grader (``start``) or forked by the first of its family
    after that one's preloads (a sibling: numpy imported once for all of them)."""

    def __init__(
        self, python: str, control: socket.socket, group: str | None, pid: int | None
    ) -> None:
        self.python = python
        self.group = group
        self._control = control
        self._spawned = pid is not None  # the grader's child, which the grader reaps
        self._pid = pid
        self._pidfd = os.pidfd_open(pid) if pid is not None else None
        self._joined: bool | None = None  # whether it is in its group: it says so once started
        self.exit_status: int | None = None  # its wait status, once the grader has reaped it
        self._lock = threading.Lock()

    @classmethod
    def start(cls, spec: ServerSpec, siblings: int = 0) -> list[ForkServer]:
        """A server and ``siblings`` more, which it forks once its preloads are in."""
        # Each its own control group (root only), which it joins first thing: its children are
        # born in it, where writing each run into a new group would cost ~9 ms of waiting per run.
        groups = [cgroups.create(None) for _ in range(1 + siblings)]
        pairs = [socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET) for _ in groups]
        options = [f"--user-site={spec.user_site}"] if spec.user_site else []
        options += [f"--cgroup={groups[0]}"] if groups[0] else []
        options += [f"--sibling={group or ''}" for group in groups[1:]]
        # stdin, stdout and stderr on /dev/null: a child gets its own, and must not inherit how
        # the grader's were (closed, or a terminal that would make stdout line-buffered); the
        # control sockets on 3 (its own), 4... (its siblings')
        null = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
        given = [
            (os.POSIX_SPAWN_DUP2, theirs.fileno(), CONTROL_FD + i)
            for i, (_ours, theirs) in enumerate(pairs)
        ]
        try:
            pid = orphans.spawn(
                lambda: os.posix_spawn(
                    spec.python,
                    [spec.python, "-I", str(_SERVER), *options, *spec.preload],
                    dict(spec.env),
                    file_actions=[*null, *given],
                    setsid=True,  # Ctrl-C at the terminal is the grader's, not the server's
                    setsigmask=(),
                )
            )
        except OSError as exc:
            for ours, _theirs in pairs:
                ours.close()
            for group in groups:
                if group is not None:
                    cgroups.remove(group)
            raise InternalError(f"cannot start the fork server with {spec.python}: {exc}") from exc
        finally:
            for _ours, theirs in pairs:
                theirs.close()
        return [
            cls(spec.python, ours, group, pid if i == 0 else None)
            for i, ((ours, _theirs), group) in enumerate(zip(pairs, groups, strict=True))
        ]

    def _started(self) -> bool:
        """Whether the server has started (its first message: its pid, and whether it joined
        its group); read once, before its first run."""
        with self._lock:
            if self._joined is None:
                self._control.settimeout(_ANSWER_S)
                try:
                    pid, joined = marshal.loads(self._control.recv(64))
                    if self._pid is None:
                        self._pidfd = os.pidfd_open(pid)  # alive: it just spoke
                        self._pid = pid
                    self._joined = bool(joined)
                except (OSError, EOFError, ValueError, TypeError):
                    self._joined = False
                    self._pid = self._pid or 0
                self._control.settimeout(None)
            return bool(self._pid)

    @property
    def pid(self) -> int:
        self._started()
        return self._pid or 0

    def cap(self, tasks: int | None) -> None:
        """Let the next run have ``tasks`` tasks (None: any number) besides the server's own.

        Raises InternalError where the server could not join its group: a run would not be
        counted."""
        if not self._started():
            raise InternalError("the fork server did not start")
        if self.group is None:
            return
        if not self._joined:
            raise InternalError(f"the fork server did not join its control group {self.group}")
        try:
            own = len(os.listdir(f"/proc/{self.pid}/task"))
        except OSError:
            own = 1
        # and what is still counted of earlier runs (a killed process not yet reaped): the
        # run gets its own tasks whatever its predecessors left
        counted = max(own, cgroups.current(self.group) or 0)
        if not cgroups.limit(self.group, None if tasks is None else counted + tasks):
            raise InternalError(f"cannot limit the tasks of the control group {self.group}")

    def sweep(self) -> None:
        """Kill whatever a run left in the server's group (where no PID namespace ended it)."""
        if self.group is not None:
            cgroups.kill(self.group, spare=self.pid)

    def spawn(self, fds: Sequence[int], env: Mapping[str, str]) -> Child:
        """A child with ``fds`` as its stdin, stdout, stderr, status pipe and config."""
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        mine.settimeout(_ANSWER_S)  # a stopped or stuck server is the grader's error, not a hang
        try:
            with self._lock:
                self._control.sendmsg(
                    [marshal.dumps(dict(env))],
                    [
                        (
                            socket.SOL_SOCKET,
                            socket.SCM_RIGHTS,
                            array.array("i", [*fds, theirs.fileno()]),
                        )
                    ],
                )
        except OSError as exc:
            mine.close()
            raise InternalError(f"the fork server is gone: {exc}") from exc
        finally:
            theirs.close()
        received = array.array("i")
        try:
            data, ancillary, _flags, _addr = mine.recvmsg(64, socket.CMSG_SPACE(received.itemsize))
        except OSError as exc:
            mine.close()
            raise InternalError(f"the fork server did not answer: {exc}") from exc
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                received.frombytes(payload[: len(payload) - len(payload) % received.itemsize])
        if not data or len(received) != 1:
            mine.close()
            raise InternalError("the fork server did not start the run")
        return Child(marshal.loads(data), received[0], mine)

    def reap(self, child: Child) -> tuple[int, float, int | None]:
        """The ended child's wait status, CPU seconds and peak memory in bytes (the caller has
        killed its group)."""
        try:
            child.reply.send(b"reap")
            status, cpu, maxrss = marshal.loads(child.reply.recv(256))
        except (OSError, EOFError, ValueError) as exc:
            raise InternalError(f"the fork server lost a run: {exc}") from exc
        finally:
            child.reply.close()
            os.close(child.pidfd)
        return int(status), float(cpu), peak_from_rusage(int(maxrss))

    def alive(self) -> bool:
        """False once it has ended; a sibling that has not spoken yet counts as alive (its
        first run finds out)."""
        if self._pidfd is None:
            return self._joined is None
        return not select.select([self._pidfd], [], [], 0)[0]

    def tell_to_stop(self) -> None:
        """Close its control socket: it exits once it reads the end, when it is serving."""
        self._control.close()

    def close(self) -> None:
        """Stop the server: told (``tell_to_stop``) and waited for; one still importing, or
        stuck, is killed after ``_CLOSE_S``."""
        self.tell_to_stop()
        if self._pidfd is not None:
            try:
                poller = select.poll()
                poller.register(self._pidfd, select.POLLIN)
                if not poller.poll(int(_CLOSE_S * 1000)):
                    with contextlib.suppress(OSError):
                        signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
            finally:
                os.close(self._pidfd)
                self._pidfd = None
        if self._spawned:  # a sibling is its first server's to reap
            with contextlib.suppress(ChildProcessError):
                self.exit_status = os.waitpid(self._pid or 0, 0)[1]
        if self.group is not None:
            cgroups.remove(self.group)


Key = tuple[str, tuple[str, ...]]  # ServerSpec.key


class ForkServers:
    """Fork servers per interpreter and preload list, each serving one run at a time (leased),
    started when none is idle, replaced if one died, stopped at exit. Shared by every Sandbox
    of the process: a server holds nothing of a run, each request brings its own config."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: dict[Key, list[ForkServer]] = {}
        self._all: list[ForkServer] = []
        # when the last Sandbox sharing these goes, so do its servers (a library may make many)
        weakref.finalize(self, _close_all, self._all)

    def warm(self, spec: ServerSpec, count: int = 1) -> None:
        """Start servers until ``count`` are idle, without waiting for them to be ready: their
        start-up (importing numpy) overlaps whatever the grader does before its first run.
        One interpreter starts and imports; the others are forks of it (siblings)."""
        with self._lock:
            idle = self._idle.setdefault(spec.key, [])
            if len(idle) < count:
                idle.extend(self._start(spec, siblings=count - len(idle) - 1))

    @contextlib.contextmanager
    def lease(self, spec: ServerSpec) -> Iterator[ForkServer]:
        """A server for one run, given back afterwards."""
        key = spec.key
        with self._lock:
            idle = self._idle.setdefault(key, [])
            server = None
            while idle and server is None:
                server = idle.pop()
                if not server.alive():  # killed: a new one for this run
                    self._all.remove(server)
                    server.close()
                    server = None
            if server is None:
                server = self._start(spec)[0]
        try:
            yield server
        except BaseException:  # it may be stuck or gone (or Ctrl-C): never lent again
            with self._lock:
                if server in self._all:
                    self._all.remove(server)
            server.close()
            raise
        with self._lock:
            if server in self._all:  # not closed meanwhile
                self._idle[key].append(server)

    def _start(self, spec: ServerSpec, siblings: int = 0) -> list[ForkServer]:
        servers = ForkServer.start(spec, siblings)
        self._all.extend(servers)
        return servers

    def close(self) -> None:
        with self._lock:
            self._idle.clear()
            _close_all(self._all)


def _close_all(servers: list[ForkServer]) -> None:
    """Every server told at once, then each waited for: their exits overlap."""
    found = list(servers)
    servers.clear()
    for server in found:
        server.tell_to_stop()
    for server in found:
        server.close()


_SHARED: ForkServers | None = None
_SHARED_LOCK = threading.Lock()


def shared_servers() -> ForkServers:
    """The process's fork servers, stopped when it exits."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = ForkServers()
            atexit.register(_SHARED.close)
        return _SHARED
