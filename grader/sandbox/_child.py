"""The sandboxed child: apply the layers, then run the submission in this same process.

Started by ``sandbox.py`` as ``python -I _child.py CONFIG`` (a dict, marshalled, in hex) with
stdin/stdout/stderr already redirected and a status pipe on fd 3. The order matters: limits,
identity, namespaces and mounts need privileges that Landlock and seccomp then take away; seccomp
comes last because it forbids ``execve``, which is why the submission runs here, compiled and
executed as ``__main__``, rather than by exec.
Writing one byte to fd 3 tells the parent the sandbox is up: a failure before that is the grader's,
never the student's.

Every import here is paid by every run: modules that are not built in (json, typing, importlib.util,
pathlib) cost milliseconds each, so the config comes marshalled and the layers load on demand.
"""

from __future__ import annotations

import marshal
import os
import resource
import sys
import types

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Config = dict[str, Any]

STATUS_FD = 3


def _sibling(name: str) -> types.ModuleType:
    # Loaded by path: importing the grader package would cost start-up time in every run.
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")
    module = types.ModuleType(f"_grade_{name}")
    module.__file__ = path
    with open(path, encoding="utf-8") as f:
        exec(compile(f.read(), path, "exec"), module.__dict__)
    return module


def _cap(which: int, value: int) -> None:
    # An inherited hard limit may already be lower; never try to raise it (that fails unprivileged).
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value if which != resource.RLIMIT_CPU else value + 1))


def _limits(cfg: Config) -> None:
    _cap(resource.RLIMIT_CORE, 0)
    # The soft CPU limit delivers SIGXCPU; the hard one a second later is the SIGKILL backstop.
    _cap(resource.RLIMIT_CPU, cfg["cpu_s"])
    _cap(resource.RLIMIT_DATA, cfg["data_bytes"])
    _cap(resource.RLIMIT_FSIZE, cfg["fsize_bytes"])
    _cap(resource.RLIMIT_NOFILE, cfg["nofile"])


def _apply(cfg: Config, layers: list[str], report: dict[str, Any]) -> None:
    """Apply each requested layer in order; record what happened; raise on the first failure
    unless probing (then go on, to learn about every layer)."""
    if not layers:
        return
    if TYPE_CHECKING:
        from grader.sandbox import landlock, namespaces, seccomp
    else:
        landlock, namespaces, seccomp = (_sibling(n) for n in ("landlock", "namespaces", "seccomp"))
        seccomp.syscalls = _sibling("syscalls")
    probing = cfg.get("probe", False)
    uid, gid = int(cfg.get("uid") or 0), int(cfg.get("gid") or 0)

    def step(layer: str, action: Callable[[], None]) -> None:
        if layer not in layers:
            return
        try:
            action()
            report[layer] = "ok"
        except Exception as exc:  # the parent decides what a missing layer means
            report[layer] = f"{type(exc).__name__}: {exc}"
            if not probing:
                raise

    def identity() -> None:
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
        # Changing uid makes the process non-dumpable, which leaves /proc/self owned by root and
        # the user namespace's id maps unwritable. The run's uid is its own; ptrace stays denied.
        import ctypes

        ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE

    def enter() -> None:
        namespaces.enter(os.getuid(), os.getgid())
        # Inside a fresh user namespace this counts only the sandbox's own tasks (threads too);
        # outside one it would count every process of the user, so it is set only here.
        resource.setrlimit(resource.RLIMIT_NPROC, (cfg["nproc"], cfg["nproc"]))

    def lock() -> None:
        abi = landlock.abi_version()
        if abi < 1:
            raise OSError("Landlock is not available in this kernel")
        seccomp.set_no_new_privs()
        landlock.restrict(read=cfg["read"], write=[cfg["workdir"], *cfg["devices"]], abi=abi)
        report["landlock_abi"] = abi

    def filter_syscalls() -> None:
        if not seccomp.supported():
            raise OSError("no seccomp syscall table for this architecture")
        seccomp.install(os.getpid())

    step("uid", identity)
    step("namespaces", enter)

    def cover() -> None:
        # Outside a mount namespace of its own this would cover the host's /tmp: never.
        if report.get("namespaces") != "ok":
            raise OSError("mounts need the namespaces layer")
        namespaces.hide(cfg["hide"], keep=cfg["keep"])

    step("mounts", cover)
    step("landlock", lock)
    step("seccomp", filter_syscalls)


def _signal_ready() -> None:
    try:
        os.write(STATUS_FD, b"1")
        os.close(STATUS_FD)
    except OSError:
        pass


def _run_submission(path: str) -> None:
    """Run ``path`` as ``python path`` would, as ``__main__``; runpy would import typing & co."""
    sys.argv = [path]
    # as `python path` does; -I left the script's folder out, and sys.path[0] is the stdlib
    sys.path.insert(0, os.path.dirname(path))
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__dict__["__builtins__"] = __builtins__
    sys.modules["__main__"] = main
    try:
        with open(path, "rb") as f:
            code = compile(f.read(), path, "exec", dont_inherit=True)
        exec(code, main.__dict__)
    except SystemExit:
        raise
    except BaseException as exc:
        import traceback

        # Show the traceback as `python submission.py` would: from the submission's first frame.
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != path:
            tb = tb.tb_next
        traceback.print_exception(type(exc), exc, tb)
        sys.exit(1)


def main() -> None:
    cfg = marshal.loads(bytes.fromhex(sys.argv[1]))
    os.chdir(cfg["workdir"])
    _limits(cfg)
    report: dict[str, Any] = {}
    try:
        _apply(cfg, cfg["layers"], report)
    except Exception:
        sys.stderr.write(f"grade-sandbox: {report}\n")
        sys.exit(125)
    if cfg.get("probe"):
        sys.stdout.write(repr(report))
        _signal_ready()
        return
    if cfg.get("user_site"):
        import site

        site.addsitedir(cfg["user_site"])
    _signal_ready()
    _run_submission(cfg["submission"])


main()
