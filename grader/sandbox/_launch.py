"""Runs inside the child before the submission: set resource limits, then exec.

Started as ``python -I -S _launch.py WORKDIR CPU_S DATA FSIZE NOFILE -- ARGV...``. It imports
nothing beyond the standard library's C modules so that it costs a few milliseconds, and it runs
in the child's own process (not in a preexec_fn), which stays safe while the grader uses threads.
"""

import os
import resource
import sys


def _cap(which: int, soft: int, hard: int) -> None:
    # An inherited hard limit may already be lower; never try to raise it (that fails unprivileged).
    _, current = resource.getrlimit(which)
    if current != resource.RLIM_INFINITY:
        soft, hard = min(soft, current), min(hard, current)
    resource.setrlimit(which, (soft, hard))


def main() -> None:
    workdir = sys.argv[1]
    cpu, data, fsize, nofile = (int(x) for x in sys.argv[2:6])
    argv = sys.argv[7:]
    # posix_spawn cannot change directory on every Python we support, so the child does it.
    os.chdir(workdir)
    _cap(resource.RLIMIT_CORE, 0, 0)
    # The soft CPU limit delivers SIGXCPU; the hard one a second later is the SIGKILL backstop.
    _cap(resource.RLIMIT_CPU, cpu, cpu + 1)
    _cap(resource.RLIMIT_DATA, data, data)
    _cap(resource.RLIMIT_FSIZE, fsize, fsize)
    _cap(resource.RLIMIT_NOFILE, nofile, nofile)
    os.execv(argv[0], argv)


main()
