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
        with open(path, encoding="utf-8") as f:
            code = compile(f.read(), path, "exec")
    exec(code, module.__dict__)
    _LOADED[name] = module
    return module


def _die_with_parent() -> None:
    """SIGKILL when the parent goes, however it goes. Armed again after anything that resets
    it (a change of credentials does); check the parent after arming (``_die_with``)."""
    checked: Any = _sibling("prctl", {})
    checked.prctl(checked.PR_SET_PDEATHSIG, _SIGKILL)


def _die_with(parent: int) -> None:
    """``_die_with_parent``, and end now if ``parent`` went before it took hold."""
    _die_with_parent()
    if os.getppid() != parent:
        os._exit(1)


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


def _apply(cfg: Config, report: dict[str, Any]) -> str:
    """Apply each requested layer in order; record what happened; raise on the first failure
    unless probing (then go on, to learn about every layer). Returns the path the submission
    is read from in here (its copy, bound at its own name once the run has its own root)."""
    layers = cfg.layers
    source, read = cfg.source, [*cfg.read]
    if not layers:
        return source
    if TYPE_CHECKING:
        from grader.sandbox import landlock, namespaces, seccomp
    else:
        compiled = cfg.compiled
        landlock, namespaces, seccomp = (
            _sibling(n, compiled) for n in ("landlock", "namespaces", "seccomp")
        )
        seccomp.syscalls = _sibling("syscalls", compiled)
        seccomp.prctl = namespaces.prctl = _sibling("prctl", compiled)
    probing = cfg.probe
    uid, gid = int(cfg.uid or os.getuid()), int(cfg.gid or os.getgid())
    with open("/proc/sys/kernel/cap_last_cap") as f:
        last_cap = int(f.read())

    def step(layer: str, action: Callable[[], None]) -> bool:
        if layer not in layers:
            return False
        try:
            action()
            report[layer] = "ok"
            return True
        except Exception as exc:  # the parent decides what a missing layer means
            report[layer] = f"{type(exc).__name__}: {exc}"
            if not probing:
                raise
            return False

    def identity() -> None:
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
        # Changing uid makes the process non-dumpable, which leaves /proc/self owned by root and
        # the user namespace's id maps unwritable. The run's uid is its own; ptrace stays denied.
        checked: Any = _sibling("prctl", {})
        checked.prctl(checked.PR_SET_DUMPABLE, 1)
        # The kernel clears the parent-death signal on every change of credentials: armed
        # before setresuid, it no longer held, and a run outlived a SIGKILLed grader.
        _die_with(cfg.parent)

    def enter() -> None:
        namespaces.enter(uid, gid)
        # Inside a fresh user namespace this counts only the sandbox's own tasks (threads too);
        # outside one it would count every process of the user, so it is set only here.
        resource.setrlimit(resource.RLIMIT_NPROC, (cfg.nproc, cfg.nproc))
        _die_with(cfg.parent)  # new credentials (a user namespace): armed again, to be sure

    step("uid", identity)
    if step("namespaces", enter):
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

        def build() -> None:
            nonlocal source
            namespaces.build_root(
                cfg.root,
                read=list(cfg.read),
                files=[(cfg.source, cfg.submission)],
                devices=list(cfg.devices),
                workdir=cfg.workdir,
                work_bytes=cfg.work_bytes,
                work_inodes=cfg.work_inodes,
            )
            source = cfg.submission  # bound there, read-only
            read.append("/proc")  # its own PID namespace's: the run and nothing else

        step("mounts", build)
        submission = os.fork()
        if submission:
            _init(submission, signals_w)
        os.close(signals_w)
        os.setsid()  # its own session and group: kill(0) reaches itself only

    def refuse() -> None:
        raise OSError("mounts need the namespaces layer")  # they would change the host's

    if report.get("namespaces") != "ok":
        step("mounts", refuse)
    step("capabilities", lambda: namespaces.drop_capabilities(last_cap))

    def lock() -> None:
        abi = min(landlock.abi_version(), cfg.landlock_abi_max)
        if abi < 1:
            raise OSError("Landlock is not available in this kernel")
        seccomp.set_no_new_privs()
        # the grader's own copy, never the submission's path: that path is the student's, who
        # could swap it for a link to a hidden folder once runs start (Landlock follows it)
        landlock.restrict(
            read=[*read, source],
            listed=list(cfg.list),
            write=[cfg.workdir, *cfg.devices],
            abi=abi,
        )
        report["landlock_abi"] = abi

    def filter_syscalls() -> None:
        if not seccomp.supported():
            raise OSError("no seccomp syscall table for this architecture")
        seccomp.install(os.getpid())

    step("landlock", lock)
    step("seccomp", filter_syscalls)
    return source


def _signal_ready() -> None:
    try:
        os.write(STATUS_FD, b"1")
        os.close(STATUS_FD)
    except OSError:
        pass


def main(script: types.ModuleType) -> None:
    _die_with_parent()
    # Whatever else the grader inherited and passed on (a CI runner's open files) stays out.
    os.closerange(CONFIG_FD + 1, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    with os.fdopen(CONFIG_FD, "rb") as f:
        cfg = _sibling("_protocol", {}).ChildConfig.from_wire(f.read())
    if os.getppid() != cfg.parent:  # the grader died before PR_SET_PDEATHSIG took hold
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
