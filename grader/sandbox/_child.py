"""The sandboxed child: apply the layers, then run the submission in this same process.

Started by ``process.py`` as ``python -I _child.py CONFIG_JSON`` with stdin/stdout/stderr already
redirected and a status pipe on fd 3. The order matters: limits, identity, namespaces and mounts
need privileges that Landlock and seccomp then take away; seccomp comes last because it forbids
``execve``, which is why the submission runs here via ``runpy`` rather than by exec.
Writing one byte to fd 3 tells the parent the sandbox is up: a failure before that is the grader's,
never the student's.
"""

import importlib.util
import json
import os
import resource
import sys
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

STATUS_FD = 3
Config = dict[str, Any]


def _sibling(name: str) -> ModuleType:
    # Loaded by path: importing the grader package would cost start-up time in every run.
    spec = importlib.util.spec_from_file_location(
        f"_grade_{name}", os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING:
    from grader.sandbox import landlock, namespaces, seccomp
else:
    landlock, namespaces, seccomp = (_sibling(n) for n in ("landlock", "namespaces", "seccomp"))


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
    step("mounts", lambda: namespaces.hide(cfg["hide"], keep=cfg["keep"]))
    step("landlock", lock)
    step("seccomp", filter_syscalls)


def _signal_ready() -> None:
    try:
        os.write(STATUS_FD, b"1")
        os.close(STATUS_FD)
    except OSError:
        pass


def _run_submission(path: str) -> None:
    import runpy
    import traceback

    sys.argv = [path]
    sys.path[0] = os.path.dirname(path)
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit:
        raise
    except BaseException as exc:
        # Show the traceback as `python submission.py` would: from the submission's first frame.
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != path:
            tb = tb.tb_next
        traceback.print_exception(type(exc), exc, tb)
        sys.exit(1)


def main() -> None:
    cfg = json.loads(sys.argv[1])
    os.chdir(cfg["workdir"])
    _limits(cfg)
    report: dict[str, Any] = {}
    try:
        _apply(cfg, cfg["layers"], report)
    except Exception:
        sys.stderr.write(f"grade-sandbox: {json.dumps(report)}\n")
        sys.exit(125)
    if cfg.get("probe"):
        sys.stdout.write(json.dumps(report))
        _signal_ready()
        return
    _signal_ready()
    _run_submission(cfg["submission"])


main()
