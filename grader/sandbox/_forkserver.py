"""The fork server: one interpreter per grading run that has started once, imported what the
exercise preloads (numpy), and forks a child per case; each child then does exactly what a fresh
``python -I _child.py`` does (``_child.main``: the same layers, limits and checks), minus the
interpreter's start-up and the imports.

Started by ``forkserver.py`` as ``python -I _forkserver.py MODULE...`` with a SOCK_SEQPACKET
socket on fd 3. A request is one message: the run's environment (marshalled) with six
descriptors (stdin, stdout, stderr, status pipe, config, reply socket). The server forks, sends
the child's pid and a pidfd on the reply socket, and reaps the child only when the grader asks
(after it has killed the child's process group), so the pid cannot be reused in between.
"""

from __future__ import annotations

import array
import contextlib
import gc
import marshal
import os
import select
import socket
import sys
import types

CONTROL_FD = 3
_SIGKILL = 9
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


_checked: Any = None  # prctl.py, loaded by path with the child (main)


def _load_child() -> types.ModuleType:
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_child.py")
    module = types.ModuleType("_grade_child")
    module.__file__ = path
    # from its cached bytecode where current, never written from here (_child.cached_code,
    # which loads the layer modules the same way once the child is in)
    from importlib.machinery import SourceFileLoader

    loader = SourceFileLoader("_child", path)
    loader.set_data = lambda *_args, **_kwargs: None  # type: ignore[method-assign]
    exec(loader.get_code("_child"), module.__dict__)  # type: ignore[arg-type]
    return module


def _receive(control: socket.socket) -> tuple[dict[str, str], list[int]] | None:
    fds = array.array("i")
    try:
        data, ancillary, _flags, _addr = control.recvmsg(
            1 << 16, socket.CMSG_SPACE(6 * fds.itemsize)
        )
    except ConnectionResetError:  # it went without reading this server's first message
        return None
    if not data:
        return None  # the grader has gone
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
    env: dict[str, str] = marshal.loads(data)
    return env, list(fds)


def serve(
    control: socket.socket, procfs: Any, child: types.ModuleType, templates: Any
) -> tuple[dict[str, str], list[int]]:
    """Fork a child per request until the grader goes; returns only in a child."""
    poller = select.poll()
    poller.register(control.fileno(), select.POLLIN)
    # reply fd -> pid, pidfd, reply socket, and where a run born as its init says a signal's
    # end (-1: its child is P, which ends as the submission did)
    runs: dict[int, tuple[int, int, socket.socket, int]] = {}
    while True:
        for fd, _event in poller.poll():
            if fd == control.fileno():
                request = _receive(control)
                if request is None:
                    templates.end()
                    os._exit(0)
                env, fds = request
                if len(fds) != 6:
                    for extra in fds:
                        os.close(extra)
                    continue
                given = templates.for_run(fds[4])
                birth = templates.born(given)
                signals = -1
                if birth is not None:
                    given, signals = birth
                child.__dict__["TEMPLATE"] = given
                pid = _fork()
                if birth is not None and pid != 0:
                    templates.after_birth(given)
                if pid == 0:
                    control.close()
                    for _pid, pidfd, reply, signaled in runs.values():
                        os.close(pidfd)
                        reply.close()
                        if signaled >= 0:
                            os.close(signaled)
                    if signals >= 0:
                        os.close(signals)
                    return env, fds
                for given in fds[:5]:
                    os.close(given)
                reply = socket.socket(fileno=fds[5])
                if pid < 0:  # no fork (the user's process limit is full): this run fails,
                    reply.close()  # which the grader reports as its own error; the server lives
                    if signals >= 0:
                        os.close(signals)
                    continue
                pidfd = os.pidfd_open(pid)
                reply.sendmsg(
                    [marshal.dumps(pid)],
                    [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [pidfd]))],
                )
                runs[reply.fileno()] = (pid, pidfd, reply, signals)
                poller.register(reply.fileno(), select.POLLIN)
            elif fd in runs:
                pid, pidfd, reply, signals = runs.pop(fd)
                poller.unregister(fd)
                with contextlib.suppress(OSError):
                    reply.recv(16)  # "reap", or nothing when the grader went: end it anyway
                with contextlib.suppress(OSError):
                    os.killpg(pid, _SIGKILL)
                with contextlib.suppress(OSError):  # before its setsid(), not yet a group leader
                    os.kill(pid, _SIGKILL)
                _, status, usage = os.wait4(pid, 0)
                if signals >= 0:
                    status = _as_relayed(status, signals)
                with contextlib.suppress(OSError):
                    # its peak memory too: the server reaps it, so only the server can tell
                    cpu = usage.ru_utime + usage.ru_stime
                    reply.send(marshal.dumps((status, cpu, usage.ru_maxrss)))
                reply.close()
                os.close(pidfd)
                _reap_adopted(procfs, {run[0] for run in runs.values()})


def _as_relayed(status: int, signals: int) -> int:
    """A run's init born in its namespaces ends as P would have: by the signal that ended the
    submission, which it wrote (a pid 1 cannot send itself one), as a wait status says it."""
    os.set_blocking(signals, False)
    try:
        word = os.read(signals, 8)
    except BlockingIOError:
        word = b""
    os.close(signals)
    if word and os.WIFEXITED(status):
        return int(word) & 0x7F  # killed by that signal, no core
    return status


def _reap_adopted(procfs: Any, running: set[int]) -> None:
    """Reap the children that are not runs: processes a run left, adopted by this server (its
    subreaper), once they have been killed. A zombie would count against the group's limit."""
    for found in procfs.children(os.getpid()):
        if found not in running:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(found, os.WNOHANG)


def _data_bytes() -> int:
    """This process's data segment (VmData), what RLIMIT_DATA counts."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmData:"):
                return int(line.split()[1]) * 1024
    return 0


def _fork() -> int:
    """``os.fork()``, tried again a few times while the process limit is full; -1 if it stays."""
    for wait in (0.05, 0.2, 0.5, None):
        try:
            return os.fork()
        except BlockingIOError:
            if wait is None:
                return -1
            import time  # (not before: even a sleep of 0 gave the CPU away, at every run)

            time.sleep(wait)
        except OSError:
            return -1
    return -1  # pragma: no cover  (the last wait returns)


def _become_the_run(env: dict[str, str], fds: list[int]) -> None:
    """In the child: what posix_spawn gave a fresh child (its own session, the descriptors in
    place, default signals, the run's environment), and what a fresh interpreter would not
    share with its siblings (random state)."""
    import _signal  # type: ignore[import-not-found]  # `signal` imports enum: ~4 ms a run

    os.setsid()
    _checked.prctl(_checked.PR_SET_DUMPABLE, 1)  # the server's is 0: see main()
    for target, fd in enumerate(fds[:5]):
        os.dup2(fd, target)
    for fd in fds:
        if fd > 4:
            os.close(fd)
    _signal.pthread_sigmask(_signal.SIG_SETMASK, [])
    _signal.signal(_signal.SIGINT, _signal.default_int_handler)
    _signal.signal(_signal.SIGTERM, _signal.SIG_DFL)
    os.environ.clear()
    os.environ.update(env)
    for name in ("socket", "_socket", "array", "select", "selectors"):
        sys.modules.pop(name, None)  # the server's own imports: a fresh run has none of them
    if "random" in sys.modules:
        sys.modules["random"].seed()
    numpy_random: Any = sys.modules.get("numpy.random")
    if numpy_random is not None:
        numpy_random.seed()  # the legacy global generator: seeded at import, shared by forks


def _option(flag: str) -> str:
    return next((a.removeprefix(flag) for a in sys.argv if a.startswith(flag)), "")


_group = ""  # this server's control group, where it has one


def _harden() -> None:
    """Not dumpable, and the subreaper of what its runs leave: first thing, before its imports."""
    # No PR_SET_PDEATHSIG here: it fires when the grader *thread* that started the server ends
    # (a worker of a pool). The server ends when its control socket does, which the kernel
    # closes however the grader ends; its children die with it (theirs is set by this thread).
    # Not dumpable: where neither namespaces nor Landlock apply, a run of the same uid could
    # otherwise write into this server's memory (/proc/PID/mem), and every later fork has its
    # layout; from the start, since what it writes during the imports stays there too (set
    # after them, the red team wrote into a starting server for 70-100 ms). A fork inherits
    # it; each child turns it back on for itself.
    _checked.prctl(_checked.PR_SET_DUMPABLE, 0)
    # What a run leaves behind (an init its P did not reap) is adopted here, not by PID 1,
    # which in a container may never reap: this server reaps it (_reap_adopted). (A fork does
    # not inherit this: a sibling sets it again.)
    _checked.prctl(_checked.PR_SET_CHILD_SUBREAPER, 1)


def _become_a_server(control: socket.socket, group: str) -> None:
    """In ``group``; then say so. (Hardened already: ``_harden``.)"""
    global _group
    _group = group
    joined = False
    if group:  # before any run: every task of every run is born in it (a preload's threads
        # move with the process); written here, not by cgroups.attach: its imports would show
        # in every run
        try:
            with open(os.path.join(group, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
            joined = True
        except OSError:
            pass  # the grader refuses to run then
    control.send(marshal.dumps((os.getpid(), joined)))


def _fork_siblings(control: socket.socket) -> socket.socket:
    """Fork a server per ``--sibling=GROUP``, on control sockets 4, 5...: each is this one
    with its preloads in, and its own group; then become one. Returns the socket to serve."""
    groups = [a.removeprefix("--sibling=") for a in sys.argv if a.startswith("--sibling=")]
    fds = [CONTROL_FD + 1 + i for i in range(len(groups))]
    # Every sibling's control socket stays open here until all are forked: a descriptor
    # closed meanwhile could come back as a pipe's, which a later sibling, closing the others'
    # sockets by number, would close under its own feet.
    for fd, group in zip(fds, groups, strict=True):
        if _fork() == 0:  # the sibling: single-threaded, no child yet, as a new server is
            control.close()
            for other in fds:
                if other != fd:
                    os.close(other)
            own = socket.socket(fileno=fd)
            _harden()
            _become_a_server(own, group)
            return own
        # (no fork, -1: the grader hears nothing from that one, and replaces it)
    for fd in fds:
        os.close(fd)
    # This server joins its group only now, at the same time as its siblings join theirs: a
    # join waits for the kernel (cgroup v1: ~15 ms, the first in a while), which in front of
    # the imports made the first run that much later, and a sibling forked from inside the
    # group had to be waited for until it left (else a run's end, killing what is left in
    # the group, killed it too). No run exists before: every task of every run is born in it.
    _become_a_server(control, _option("--cgroup="))
    return control


def main() -> None:
    global _checked
    control = socket.socket(fileno=CONTROL_FD)
    child = _load_child()
    _checked = child._sibling("prctl", {})
    _harden()
    user_site = _option("--user-site=")
    before = _data_bytes()
    if user_site:
        import site

        site.addsitedir(user_site)
    for name in sys.argv[1:]:
        if name.startswith("--"):
            continue
        with contextlib.suppress(Exception):  # not installed: the student's import will say so
            __import__(name)
    for stream in (sys.stdout, sys.stderr):  # what a preload printed (a banner) is not a run's
        with contextlib.suppress(Exception):
            stream.flush()
    child.preload_layers()
    # what the server holds beyond a started interpreter (numpy: ~45 MB) is not the run's:
    # its memory limit grows by as much, so a script that imports nothing gets what it would
    # get fresh
    child.__dict__["EXTRA_DATA_BYTES"] = max(0, _data_bytes() - before)
    template = child._sibling("template", {})
    # What the preloads made stays for good: out of the collector's generations, a collection
    # in a run never writes to those pages, so each fork keeps sharing them with the server.
    gc.collect()
    gc.freeze()
    control = _fork_siblings(control)

    templates = template.Templates(child, _group)  # per server: a sibling makes its own
    env, fds = serve(control, child._sibling("procfs", {}), child, templates)
    _become_the_run(env, fds)
    # the run can walk up to this frame: leave nothing of the server here
    del env, fds, control, user_site, before, template, templates
    child.run_and_exit()


if __name__ == "__main__":
    main()
