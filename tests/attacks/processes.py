# Starts processes every way Python allows: fork, subprocess, os.system, _posixsubprocess,
# ctypes calls straight into libc, and a bounded fork bomb.
import ctypes
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any


def attempt(name: str, action: Callable[[], object]) -> None:
    try:
        action()
        print("OK", name, flush=True)
    except Exception as exc:
        print("BLOCKED", name, type(exc).__name__, flush=True)


def fork() -> None:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)


def posixsubprocess() -> None:
    import _posixsubprocess

    # Called directly, with the arguments this Python's own subprocess passes (its signature
    # changes between versions): recorded from a Popen that is stopped before it forks.
    real: Any = _posixsubprocess.fork_exec
    seen: list[tuple[object, ...]] = []

    def record(*args: object) -> int:
        seen.append(args)
        raise RuntimeError("recorded")

    # 3.11 and later call it as subprocess._fork_exec, 3.10 as _posixsubprocess.fork_exec
    owner: Any = subprocess if hasattr(subprocess, "_fork_exec") else _posixsubprocess
    name = "_fork_exec" if owner is subprocess else "fork_exec"
    setattr(owner, name, record)
    try:
        subprocess.Popen(["/bin/true"], cwd="/")  # a cwd: never posix_spawn (3.13)
    except RuntimeError:
        pass
    finally:
        setattr(owner, name, real)
    os.waitpid(real(*seen[0]), 0)


libc = ctypes.CDLL(None, use_errno=True)


def libc_fork() -> None:
    pid = libc.fork()
    if pid == 0:
        os._exit(0)
    if pid < 0:
        raise OSError(ctypes.get_errno(), "fork")
    os.waitpid(pid, 0)


def libc_system() -> None:
    if libc.system(b"/bin/true") != 0:
        raise OSError("system failed")


def bomb() -> None:
    for _ in range(20):  # bounded: a real bomb would not stop
        fork()


attempt("fork", fork)
attempt("subprocess", lambda: subprocess.run(["/bin/true"], check=True))
attempt("os.system", lambda: os.system("/bin/true") == 0 or (_ for _ in ()).throw(OSError()))
attempt("_posixsubprocess", posixsubprocess)
attempt("libc.fork", libc_fork)
attempt("libc.system", libc_system)
attempt("fork bomb", bomb)
attempt("execv", lambda: os.execv("/bin/true", ["/bin/true"]))  # last: it ends the script
sys.stdout.flush()
