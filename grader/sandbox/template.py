"""A fork server's namespace template: made once, joined by every run it fits.

A run under the namespaces and mounts layers with no uid of its own (an ordinary user; root
whose interpreter other uids cannot read) would otherwise make a user, mount, network, IPC and
UTS namespace and bind its whole root from nothing. Here a process of the server's, the
template's **holder**, makes those namespaces once, empty, with the read-only part of the root
(``namespaces.populate``) at a folder of its own; each run's P enters them (``setns``) and
unshares only what must be its own: a PID namespace and a copy of the mount namespace, where its
pid 1 mounts its fresh work dir and /proc and binds its submission (``namespaces.finish_root``).
What the runs share, and why none of them can leave anything there for the next, is in
docs/sandbox.md.

Loaded by path in the fork server (``_forkserver.py``), as the layers are in the child. The
holder dies with the server (its parent-death signal); the folder, empty outside the holder's
mount namespace, is removed with the server, or by a later server if this one was killed
(``heldfolders``: the server holds its lock). A folder removed is gone in every namespace, the
holder's mounts with it: if it goes anyway, the server's next run makes a new template.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # `signal` imports enum
import contextlib
import marshal
import os
import select

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_SIGKILL = 9
_PREFIX = "grade-template-"
_PLACE = "/tmp"
_HELD = "-template"  # the holder's control group: the server's, so named


class Holder:
    """One template: its key (what a run's config must equal to use it), its holder, and what a
    child is given of it (``_child.Template``)."""

    def __init__(
        self, key: tuple[Any, ...], pid: int, folder: tuple[str, int], given: Any, group: str
    ) -> None:
        self.key, self.pid, self.given = key, pid, given
        self.folder, self.locked = folder
        self.group = group + _HELD if group else ""
        self.pidfd = os.pidfd_open(pid)

    def alive(self) -> bool:
        """Its holder alive and its folder still there (a folder removed by a /tmp cleaner
        took the mounts at it, in the holder's namespace too)."""
        poller = select.poll()
        poller.register(self.pidfd, select.POLLIN)
        return not poller.poll(0) and os.fstat(self.locked).st_nlink > 0

    def end(self) -> None:
        # through its pidfd, never its pid: a holder that died during a run was reaped at its
        # end (the server reaps the children that are not runs), and its pid may be another's
        with contextlib.suppress(OSError):
            _signal.pidfd_send_signal(self.pidfd, _SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitid(os.P_PIDFD, self.pidfd, os.WEXITED)
        for fd in [self.pidfd, *self.given.fds.values()]:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.rmdir(self.folder)
        os.close(self.locked)  # only now: unlocked, a folder is any grader's to remove
        if self.group:  # empty once the holder is reaped (a stale one: cgroups.remove_stale)
            with contextlib.suppress(OSError):
                os.rmdir(self.group)


class Templates:
    """The server's template, made on the first run it fits, made again when a run's allow-list
    differs (one sandbox hiding other folders than the last) or its holder died."""

    def __init__(self, child: Any, group: str) -> None:
        self._child, self._group = child, group
        self._namespaces: Any = child._sibling("namespaces", {})
        self._protocol: Any = child._sibling("_protocol", {})
        self._held: Any = child._sibling("heldfolders", {})
        self.current: Holder | None = None
        self._failed: set[tuple[Any, ...]] = set()
        # As root a run's init is born in its PID namespace, forked by the server itself; it
        # checks the server is alive on this pipe (its parent, seen from in there, is pid 0)
        self._own_pid: int | None = None
        self._alive: tuple[int, int] | None = None
        if os.geteuid() == 0:
            with contextlib.suppress(OSError):
                self._own_pid = _high(os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC))
                alive_r, alive_w = os.pipe()
                self._alive = _high(alive_r), _high(alive_w)

    def born(self, given: Any) -> tuple[Any, int] | None:
        """Where the server can fork the run's init itself (root): the ``_child.Template`` to
        give it, and the end of the pipe its init says the submission's signal on, after the
        server's next child has been made pid 1 of a PID namespace of its own."""
        if given is None or self._own_pid is None or self._alive is None:
            return None
        signals_r, signals_w = (_high(fd) for fd in os.pipe())
        try:
            # a setns to its own resets the namespace for its children, which unshare makes
            # new (it refuses while the two differ: after the last run's)
            self._namespaces.new_pid_namespace(self._own_pid)
        except OSError:
            os.close(signals_r)
            os.close(signals_w)
            return None
        birth = self._child.Template(given.fds, given.folder, given.skeleton)
        birth.alive, birth.signals = self._alive[0], signals_w
        return birth, signals_r

    def after_birth(self, birth: Any) -> None:
        """In the server, once the init is forked: its children are its own again."""
        os.close(birth.signals)
        self._namespaces.new_pid_namespace(self._own_pid, fresh=False)

    def for_run(self, config_fd: int) -> Any:
        """The template a run of this config joins (a ``_child.Template``), or None: today's
        path, a user namespace and a root of its own."""
        try:
            cfg = self._protocol.template_fields(config_fd)  # never the rest: _protocol
        except (OSError, ValueError, TypeError, EOFError):
            return None
        # with a uid of its own (root) the run's user namespace maps that uid: its own. Without
        # seccomp nothing refuses what a run could leave in the shared namespaces (a SysV
        # segment, a POSIX queue): such a run makes its own, as before the template
        needed = {"namespaces", "mounts", "seccomp"}
        if cfg["probe"] or cfg["uid"] is not None or not needed <= set(cfg["layers"]):
            return None
        key = (tuple(cfg["read"]), tuple(cfg["devices"]))
        if self.current is not None and (self.current.key != key or not self.current.alive()):
            self.current.end()
            self.current = None
        if self.current is None and key not in self._failed:
            self.current = self._make(key)
            if self.current is None:
                self._failed.add(key)  # no user namespace here: never tried again
        return self.current.given if self.current is not None else None

    def end(self) -> None:
        if self.current is not None:
            self.current.end()
            self.current = None

    def _make(self, key: tuple[Any, ...]) -> Holder | None:
        self._held.remove_stale(_PLACE, _PREFIX, _rmdir)
        try:
            folder, locked = self._held.make(_PLACE, f"{_PREFIX}{os.getpid()}-")
        except OSError:
            return None
        locked = _high(locked)
        made_r, made_w = os.pipe()
        server = os.getpid()
        try:
            pid = os.fork()
        except OSError:
            pid = -1
        if pid == 0:  # the holder
            try:
                self._hold(server, made_w, folder, key)
            finally:
                os._exit(1)
        os.close(made_w)
        with os.fdopen(made_r, "rb") as made:
            answer = made.read()
        fds: dict[str, int] = {}
        try:
            if pid < 0 or not answer:
                raise OSError("the template was not made")
            for name, _flag in self._namespaces.JOINED:
                fds[name] = _high(os.open(f"/proc/{pid}/ns/{name}", os.O_RDONLY | os.O_CLOEXEC))
            skeleton = self._namespaces.Template(*marshal.loads(answer))
            given = self._child.Template(fds, folder, skeleton)
            return Holder(key, pid, (folder, locked), given, self._group)
        except OSError:
            for fd in fds.values():
                os.close(fd)
            if pid > 0:
                with contextlib.suppress(OSError):
                    os.kill(pid, _SIGKILL)
                os.waitpid(pid, 0)
            for empty in (folder, self._group + _HELD if self._group else ""):
                with contextlib.suppress(OSError):
                    os.rmdir(empty)
            os.close(locked)
            return None

    def _hold(self, server: int, made: int, folder: str, key: tuple[Any, ...]) -> None:
        """The holder: out of the server's control group (whose sweep after each run kills
        everything but the server), the template made, and then nothing until the server
        ends (and with it, this process: its parent-death signal)."""
        checked: Any = self._child._sibling("prctl", {})
        checked.prctl(checked.PR_SET_PDEATHSIG, _SIGKILL)
        if os.getppid() != server:
            return
        os.closerange(3, made)
        os.closerange(made + 1, 1 << 16)
        if self._group:  # a group of its own beside the server's (cgroup v2 puts no process
            # in a group whose children have controllers: not the parent)
            os.makedirs(self._group + _HELD, exist_ok=True)
            with open(os.path.join(self._group + _HELD, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
        checked.prctl(checked.PR_SET_DUMPABLE, 1)  # else its own id maps are root's to write
        skeleton = self._namespaces.make_template(
            folder, os.getuid(), os.getgid(), read=list(key[0]), devices=list(key[1])
        )
        checked.prctl(checked.PR_SET_PDEATHSIG, _SIGKILL)  # new credentials: armed again
        if os.getppid() != server:
            return
        os.write(made, marshal.dumps((skeleton.dirs, skeleton.leaves)))
        os.close(made)
        while True:
            _signal.pause()


def _high(fd: int) -> int:
    """``fd``, moved above the five a run's child is given (0-4), which a sibling server may
    have free: ``_become_the_run`` puts those in place over whatever holds their numbers."""
    low = []
    while fd <= 4:
        low.append(fd)
        fd = os.dup(fd)
    for each in low:
        os.close(each)
    return fd


def _rmdir(folder: str) -> None:
    with contextlib.suppress(OSError):
        os.rmdir(folder)  # empty outside its holder's namespace
