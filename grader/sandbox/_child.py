"""The sandboxed child: apply the layers, then run the submission in this same process.

Started by ``sandbox.py`` as ``python -I _child.py`` with stdin/stdout/stderr redirected, a
status pipe on fd 3 and its config (a ``_protocol.ChildConfig``) on fd 4: nothing of the config,
hidden paths included, shows in the run's ``sys.orig_argv``. Writing one byte to fd 3 tells the
parent the sandbox is up: a failure before that is the grader's, never the student's.

With namespaces, three processes: this one (P, in the grader's PID namespace) unshares and waits;
its child (pid 1 of the new PID namespace) builds the run's root and reaps; its grandchild
(pid 2) drops every privilege and runs the submission. When pid 1 ends, the kernel ends
everything else in the namespace; each process dies with its parent (PR_SET_PDEATHSIG), so
killing the grader in any way ends its runs. Without namespaces, P runs the submission itself.
A fork server's run with its namespace template (``template.py``) enters the server's
namespaces instead of making its own; as root the server forks its pid 1 itself, already in its
PID namespace (``TEMPLATE.born``), and there is no P: the server relays the end.

The submission runs here, compiled and executed as ``__main__``, rather than by exec: seccomp
forbids ``execve``. Every import here is paid by every run, so the layers load on demand.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # `signal` imports enum: ~4 ms a run
import os
import resource
import sys
import types

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NoReturn

    from grader.sandbox._protocol import ChildConfig as Config

STATUS_FD, CONFIG_FD = 3, 4
_SIGKILL, _SIGSTOP = 9, 19  # the same on x86_64 and aarch64


_LOADED: dict[str, types.ModuleType] = {}  # the fork server loads the layers once, for all


class Template:
    """A fork server's namespace template, as its child finds it: the holder's namespaces
    (descriptors the server opened), the folder its root skeleton is at, and what of that
    skeleton an earlier run's set-up did not add (``namespaces.Template``)."""

    __slots__ = ("alive", "fds", "folder", "signals", "skeleton")

    def __init__(self, fds: dict[str, int], folder: str, skeleton: Any) -> None:
        self.fds, self.folder, self.skeleton = fds, folder, skeleton
        # born as its init (root): the server's alive pipe, and where to say a signal's end
        self.alive, self.signals = -1, -1

    @property
    def born(self) -> bool:
        return self.signals >= 0

    def held(self) -> list[int]:
        return [*self.fds.values(), *([self.alive, self.signals] if self.born else [])]


TEMPLATE: Template | None = None  # set by the fork server before it forks a run it fits


def preload_layers() -> None:
    """Load the layer modules now (the fork server, once): its children find them loaded."""
    for name in ("_protocol", "_script", "landlock", "namespaces", "prctl", "seccomp", "syscalls"):
        _sibling(name, {})
    seccomp: Any = _LOADED["seccomp"]
    namespaces: Any = _LOADED["namespaces"]
    seccomp.syscalls = _LOADED["syscalls"]
    seccomp.prctl = namespaces.prctl = _LOADED["prctl"]
    if seccomp.supported():  # the submission is pid 2 of its PID namespace: the same filter
        seccomp.build_filter(2)


def _sibling(name: str, compiled: dict[str, Any]) -> types.ModuleType:
    # Loaded by path, not imported: the grader package would cost start-up time in every run.
    # The grader sends the code compiled when this interpreter is its own (~7 ms saved).
    if name in _LOADED:
        return _LOADED[name]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")
    module = types.ModuleType(f"_grade_{name}")
    module.__file__ = path
    code = compiled.get(name)
    if code is None:
        code = cached_code(path)
    exec(code, module.__dict__)
    _LOADED[name] = module
    return module


def cached_code(path: str) -> types.CodeType:
    """The code of the module at ``path``: from its bytecode in ``__pycache__`` where that is
    current (checked against the source as an import checks it; pip writes it at install),
    else compiled: a fork server's start compiled ~2,000 lines, ~10 ms before its first run.
    Never written from here: a run's process leaves nothing in the grader's installation."""
    from importlib.machinery import SourceFileLoader

    name = os.path.basename(path).removesuffix(".py")
    loader = SourceFileLoader(name, path)
    loader.set_data = lambda *_args, **_kwargs: None  # type: ignore[method-assign]
    return loader.get_code(name)  # type: ignore[return-value]


def _die_with_parent() -> None:
    """SIGKILL when the parent goes, however it goes. Armed again after anything that resets
    it (a change of credentials does); check the parent after arming (``_die_with``)."""
    checked: Any = _sibling("prctl", {})
    checked.prctl(checked.PR_SET_PDEATHSIG, _SIGKILL)


def _die_with(parent: int) -> None:
    """``_die_with_parent``, and end now if ``parent`` went before it took hold."""
    _die_with_parent()
    if not _parent_alive(parent):
        os._exit(1)


def _parent_alive(parent: int) -> bool:
    if TEMPLATE is not None and TEMPLATE.born:  # pid 1 of its own: its parent is pid 0 here
        os.set_blocking(TEMPLATE.alive, False)
        try:
            os.read(TEMPLATE.alive, 1)  # the server holds the other end until it ends
            return False
        except BlockingIOError:
            return True
    return os.getppid() == parent


def _cap(which: int, value: int) -> None:
    # An inherited hard limit may already be lower; never try to raise it (that fails unprivileged).
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value if which != resource.RLIMIT_CPU else value + 1))


EXTRA_DATA_BYTES = 0  # a fork server's own preloads: not counted against the run


def _limits(cfg: Config) -> None:
    _cap(resource.RLIMIT_CORE, 0)
    # The soft CPU limit delivers SIGXCPU; the hard one a second later is the SIGKILL backstop.
    _cap(resource.RLIMIT_CPU, cfg.cpu_s)
    data = cfg.data_bytes + EXTRA_DATA_BYTES
    _cap(resource.RLIMIT_DATA, data)
    # A generous address space: what RLIMIT_DATA misses (read-only mappings whose page tables
    # still cost memory) stays bounded; numpy needs ~300 MB of it.
    _cap(resource.RLIMIT_AS, data + (2 << 30))
    # The main thread's stack is not data: unlimited (as it often is), a script could raise
    # its own limit and hold gigabytes in deep C recursion. At most the memory limit.
    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    most = cfg.data_bytes if hard == resource.RLIM_INFINITY else min(hard, cfg.data_bytes)
    soft = most if soft == resource.RLIM_INFINITY else min(soft, most)
    resource.setrlimit(resource.RLIMIT_STACK, (soft, most))
    _cap(resource.RLIMIT_FSIZE, cfg.fsize_bytes)
    _cap(resource.RLIMIT_NOFILE, cfg.nofile)


def _relay(child: int, signals: int) -> NoReturn:
    """P's end: wait for pid 1 and end as the submission ended, signal included."""
    _, status = os.waitpid(child, 0)
    word = os.read(signals, 8)  # pid 1 writes the signal that ended the submission, if one did
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
    elif word:
        sig = int(word)
    else:
        os._exit(os.waitstatus_to_exitcode(status))
    if sig not in (_SIGKILL, _SIGSTOP):  # those two have no handler to reset
        _signal.signal(sig, _signal.SIG_DFL)
    os.kill(os.getpid(), sig)
    os._exit(128 + sig)


def _init(child: int, signals: int) -> NoReturn:
    """pid 1's end: reap until the submission ends; its end is the namespace's."""
    while True:
        pid, status = os.wait()
        if pid == child:
            break
    if os.WIFSIGNALED(status):
        os.write(signals, str(os.WTERMSIG(status)).encode())
        os._exit(0)
    os._exit(os.waitstatus_to_exitcode(status))


# The layers in the order they are applied: each a step of _apply, named as the report names it
LAYER_ORDER = ("uid", "namespaces", "mounts", "capabilities", "landlock", "seccomp")


class _Layering:
    """What the layers build as they go: the paths the run may read, where its submission is
    read from, and the report of each layer; with the layer modules, loaded by path."""

    landlock: Any  # the layer modules: loaded by path, their types are the modules'
    namespaces: Any
    seccomp: Any

    def __init__(self, cfg: Config, report: dict[str, Any]) -> None:
        self.cfg, self.report = cfg, report
        self.source, self.read = cfg.source, [*cfg.read]
        self.uid, self.gid = int(cfg.uid or os.getuid()), int(cfg.gid or os.getgid())
        with open("/proc/sys/kernel/cap_last_cap") as f:  # before the root changes
            self.last_cap = int(f.read())
        compiled = cfg.compiled
        self.landlock, self.namespaces, self.seccomp = (
            _sibling(n, compiled) for n in ("landlock", "namespaces", "seccomp")
        )
        self.seccomp.syscalls = _sibling("syscalls", compiled)
        self.seccomp.prctl = self.namespaces.prctl = _sibling("prctl", compiled)


def _step(state: _Layering, layer: str, action: Callable[[_Layering], None]) -> bool:
    """Apply ``layer`` if it was asked for; record what happened. A failure raises unless
    probing (then the probe goes on, to learn about every layer): the parent decides what a
    missing layer means. True when the layer holds."""
    if layer not in state.cfg.layers:
        return False
    try:
        action(state)
    except Exception as exc:
        state.report[layer] = f"{type(exc).__name__}: {exc}"
        if not state.cfg.probe:
            raise
        return False
    state.report[layer] = "ok"
    return True


def _identity(state: _Layering) -> None:
    """The run's own uid and gid, no supplementary groups."""
    os.setgroups([])
    os.setresgid(state.gid, state.gid, state.gid)
    os.setresuid(state.uid, state.uid, state.uid)
    # Changing uid makes the process non-dumpable, which leaves /proc/self owned by root and
    # the user namespace's id maps unwritable. The run's uid is its own; ptrace stays denied.
    checked: Any = _sibling("prctl", {})
    checked.prctl(checked.PR_SET_DUMPABLE, 1)
    # The kernel clears the parent-death signal on every change of credentials: armed
    # before setresuid, it no longer held, and a run outlived a SIGKILLed grader.
    _die_with(state.cfg.parent)


def _enter_namespaces(state: _Layering) -> None:
    if TEMPLATE is not None:
        _join_template(state, TEMPLATE)
        return
    state.namespaces.enter(state.uid, state.gid)
    _limit_tasks(state.cfg.nproc)
    _die_with(state.cfg.parent)  # new credentials (a user namespace): armed again, to be sure


def _limit_tasks(nproc: int) -> None:
    # Inside a user namespace of the sandbox's this counts only its own tasks (threads too);
    # outside one it would count every process of the user, so it is set only here.
    resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))


def _join_template(state: _Layering, template: Template) -> None:
    """The server's namespaces (user, network, IPC, UTS: made once, empty), and a copy of its
    mount namespace and a PID namespace of the run's own; then the skeleton cleared of what an
    earlier run's set-up added there. Born as the run's init (root), it is in its PID namespace
    already, and enters the user namespace last (``_become_the_runs_user``): it mounts as
    root."""
    namespaces = state.namespaces
    if template.born:
        namespaces.join(template.fds, ("mnt", "net", "ipc", "uts"), namespaces.CLONE_NEWNS)
        namespaces.clear(template.folder, template.skeleton)
        return
    try:
        namespaces.join(template.fds)
    finally:
        for fd in template.fds.values():
            os.close(fd)
    namespaces.clear(template.folder, template.skeleton)
    _limit_tasks(state.cfg.nproc + 1)  # the holder is a task of the same uid in there
    _die_with(state.cfg.parent)  # new credentials: armed again


def _become_the_runs_user(state: _Layering, template: Template) -> None:
    """The init born in its namespaces, its root made: uid 1000 of the template's user
    namespace, as P would be (no capability outside it, so none over the mounts just made)."""
    try:
        state.namespaces.join(template.fds, ("user",), 0)
    finally:
        for fd in template.fds.values():
            os.close(fd)
    _limit_tasks(state.cfg.nproc)  # the holder, the init and the submission: as P, pid 1, 2
    _die_with(state.cfg.parent)
    os.close(template.alive)


def _become_pid_one() -> int:
    """Fork pid 1 of the new PID namespace: P relays its end and never returns; pid 1 returns
    the pipe it tells P the submission's signal on."""
    signals_r, signals_w = os.pipe()
    alive_r, alive_w = os.pipe()
    init = os.fork()
    if init:
        os.close(signals_w)
        os.close(alive_r)
        _relay(init, signals_r)
    # pid 1: die with P, and make sure P had not died already
    os.close(signals_r)
    os.close(alive_w)
    _die_with_parent()
    # (not select(): a fork server's child would import it again, ~1 ms a run)
    os.set_blocking(alive_r, False)
    try:
        os.read(alive_r, 1)  # nobody writes to it: this is its end, P is gone
        os._exit(1)
    except BlockingIOError:  # P holds the other end
        pass
    os.close(alive_r)  # else the submission would inherit it, and block reading it
    return signals_w


def _build_root(state: _Layering) -> None:
    """The run's own root, from nothing, or from its server's template (pid 1 mounts its fresh
    /proc)."""
    cfg = state.cfg
    work = {"workdir": cfg.workdir, "work_bytes": cfg.work_bytes, "work_inodes": cfg.work_inodes}
    if TEMPLATE is not None:
        # born: root still, before it enters the template's user namespace
        owner = {"owner": os.getuid(), "rebind": True} if TEMPLATE.born else {}
        files = [(cfg.source, cfg.submission)]
        state.namespaces.finish_root(TEMPLATE.folder, files=files, **work, **owner)
        if TEMPLATE.born:
            _become_the_runs_user(state, TEMPLATE)
    else:
        state.namespaces.build_root(
            cfg.root,
            read=list(cfg.read),
            files=[(cfg.source, cfg.submission)],
            devices=list(cfg.devices),
            **work,
        )
    state.source = cfg.submission  # bound there, read-only
    state.read.append("/proc")  # its own PID namespace's: the run and nothing else


def _become_the_submission(signals_w: int) -> None:
    """Fork pid 2, which runs the submission: pid 1 reaps and never returns."""
    submission = os.fork()
    if submission:
        _init(submission, signals_w)
    os.close(signals_w)
    os.setsid()  # its own session and group: kill(0) reaches itself only


def _refuse_mounts(state: _Layering) -> None:
    raise OSError("mounts need the namespaces layer")  # they would change the host's


def _drop_capabilities(state: _Layering) -> None:
    state.namespaces.drop_capabilities(state.last_cap)


def _landlock(state: _Layering) -> None:
    cfg = state.cfg
    abi = min(state.landlock.abi_version(), cfg.landlock_abi_max)
    if abi < 1:
        raise OSError("Landlock is not available in this kernel")
    state.seccomp.set_no_new_privs()
    # the grader's own copy, never the submission's path: that path is the student's, who
    # could swap it for a link to a hidden folder once runs start (Landlock follows it)
    state.landlock.restrict(
        read=[*state.read, state.source],
        listed=list(cfg.list),
        write=[cfg.workdir, *cfg.devices],
        abi=abi,
    )
    state.report["landlock_abi"] = abi


def _filter_syscalls(state: _Layering) -> None:
    if not state.seccomp.supported():
        raise OSError("no seccomp syscall table for this architecture")
    state.seccomp.install(os.getpid())


def _apply(cfg: Config, report: dict[str, Any]) -> str:
    """Apply each requested layer in ``LAYER_ORDER``; record what happened in ``report``.
    Returns the path the submission is read from in here (its copy, bound at its own name once
    the run has its own root)."""
    if not cfg.layers:
        return cfg.source
    state = _Layering(cfg, report)
    _step(state, "uid", _identity)
    if _step(state, "namespaces", _enter_namespaces):
        born = TEMPLATE is not None and TEMPLATE.born  # its init already: no P to relay
        signals_w = TEMPLATE.signals if born else _become_pid_one()  # type: ignore[union-attr]
        _step(state, "mounts", _build_root)
        _become_the_submission(signals_w)
    else:
        _step(state, "mounts", _refuse_mounts)
    _step(state, "capabilities", _drop_capabilities)
    _step(state, "landlock", _landlock)
    _step(state, "seccomp", _filter_syscalls)
    return state.source


def _signal_ready() -> None:
    try:
        os.write(STATUS_FD, b"1")
        os.close(STATUS_FD)
    except OSError:
        pass


def main(script: types.ModuleType) -> None:
    _die_with_parent()
    # Whatever else the grader inherited and passed on (a CI runner's open files) stays out.
    # (but a template's namespaces, which P enters and closes)
    keep = sorted(TEMPLATE.held()) if TEMPLATE is not None else []
    most = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    for low, high in zip([CONFIG_FD, *keep], [*keep, most], strict=True):
        os.closerange(low + 1, high)
    with os.fdopen(CONFIG_FD, "rb") as f:
        cfg = _sibling("_protocol", {}).ChildConfig.from_wire(f.read())
    if not _parent_alive(cfg.parent):  # the grader died before PR_SET_PDEATHSIG took hold
        sys.exit(1)
    os.chdir(cfg.workdir)
    _limits(cfg)
    report: dict[str, Any] = {}
    try:
        source = _apply(cfg, report)
    except Exception as exc:
        sys.stderr.write(f"grade-sandbox: {report}: {type(exc).__name__}: {exc}\n")
        sys.exit(125)
    if cfg.probe:
        sys.stdout.write(repr(report))
        _signal_ready()
        return
    if cfg.user_site:
        import site

        site.addsitedir(cfg.user_site)
    shown, args = cfg.submission, list(cfg.args)
    # A checker's input and expected output: written here, inside the run's own work dir
    for name, content in cfg.files.items():
        with open(name, "xb") as f:
            f.write(content)
    del cfg, report  # the submission can walk up to this frame: leave nothing of the grader
    sys.orig_argv = [sys.executable, shown, *args]  # as `python shown` would have it
    _signal_ready()
    script.run_submission(shown, source, args)


def run_and_exit() -> NoReturn:
    """``main``, then the interpreter's own exit without its module teardown (``_script``)."""
    script = _sibling("_script", {})
    script.run_and_exit(lambda: main(script))
    raise AssertionError("run_and_exit() returned")  # pragma: no cover


if __name__ == "__main__":  # else the fork server loaded it, and calls it in each child
    run_and_exit()
