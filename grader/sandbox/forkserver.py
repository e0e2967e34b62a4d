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
import socket
import sys
import threading
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import InternalError

_SERVER = Path(__file__).with_name("_forkserver.py")
CONTROL_FD = 3
_ANSWER_S = 60.0  # the server answers at once; this bounds a stopped or stuck one


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
class Child:
    pid: int
    pidfd: int
    reply: socket.socket


class ForkServer:
    def __init__(
        self, python: str, preload: Sequence[str], env: Mapping[str, str], user_site: str | None
    ) -> None:
        self.python = python
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        site = [f"--user-site={user_site}"] if user_site else []
        # stdin, stdout and stderr on /dev/null: a child gets its own, and must not inherit how
        # the grader's were (closed, or a terminal that would make stdout line-buffered)
        null = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
        try:
            self.pid = os.posix_spawn(
                python,
                [python, "-I", str(_SERVER), *site, *preload],
                dict(env),
                file_actions=[*null, (os.POSIX_SPAWN_DUP2, theirs.fileno(), CONTROL_FD)],
                setsid=True,  # Ctrl-C at the terminal is the grader's to handle, not the server's
                setsigmask=(),
            )
        except OSError as exc:
            raise InternalError(f"cannot start the fork server with {python}: {exc}") from exc
        finally:
            theirs.close()
        self._control = ours
        self._lock = threading.Lock()

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

    def reap(self, child: Child) -> tuple[int, float]:
        """The ended child's wait status and CPU seconds (the caller has killed its group)."""
        try:
            child.reply.send(b"reap")
            status, cpu = marshal.loads(child.reply.recv(256))
        except (OSError, EOFError, ValueError) as exc:
            raise InternalError(f"the fork server lost a run: {exc}") from exc
        finally:
            child.reply.close()
            os.close(child.pidfd)
        return int(status), float(cpu)

    def alive(self) -> bool:
        try:
            pid, _status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            return False
        return pid == 0

    def close(self) -> None:
        self._control.close()  # the server exits when it reads the end
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


class ForkServers:
    """One server per interpreter and preload list, started on first use and shared by every
    Sandbox of the process (a server holds nothing of a run: each request brings its own
    config), started again if it died, stopped at exit."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._servers: dict[tuple[str, tuple[str, ...]], ForkServer] = {}
        # when the last Sandbox sharing these goes, so do its servers (a library may make many)
        weakref.finalize(self, _close_all, self._servers)

    def get(
        self, python: str, preload: Sequence[str], env: Mapping[str, str], user_site: str | None
    ) -> ForkServer:
        key = (python, tuple(preload))
        with self._lock:
            server = self._servers.get(key)
            if server is not None and not server.alive():  # killed: a new one for the next run
                server.close()
                server = None
            if server is None:
                server = ForkServer(python, preload, env, user_site)
                self._servers[key] = server
            return server

    def close(self) -> None:
        with self._lock:
            _close_all(self._servers)


def _close_all(servers: dict[tuple[str, tuple[str, ...]], ForkServer]) -> None:
    found = list(servers.values())
    servers.clear()
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
