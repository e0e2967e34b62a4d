"""The portable runner's child: set the limits this platform has, then run the submission.

Started by ``portable.py`` as ``python -I _portable_child.py CONFIG`` (a ``_protocol.ChildConfig``
file, which holds nothing the run may not see: the portable runner isolates nothing). The byte
``READY`` on stdout, before anything the submission prints, tells the grader the child got that
far: a failure before it is the grader's, never the student's. Twenty ASCII bytes follow it:
the CPU seconds the child used to get there (the interpreter's start is the machine's, in CPU
time as in wall time; ``capped.up_header``).

On POSIX the child also watches fd 3, whose other end only the grader holds: when the grader
goes, however it goes, the read returns and the child kills its own process group (macOS has no
PR_SET_PDEATHSIG). On Windows the grader's Job Object does that (kill on close).
"""

from __future__ import annotations

import os
import sys
import types

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

READY = b"\x06"
WATCH_FD = 3


def _sibling(name: str) -> Any:
    # Loaded by path, not imported: ``python -I`` may not see the grader package at all
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")
    module = types.ModuleType(f"_grade_{name}")
    module.__file__ = path
    with open(path, encoding="utf-8") as f:
        exec(compile(f.read(), path, "exec"), module.__dict__)
    return module


def _limits(cfg: Any) -> None:
    """What POSIX rlimits give (Windows: the Job Object). macOS does not enforce RLIMIT_DATA or
    RLIMIT_AS for what malloc maps: memory stays unlimited there, and the notice says so."""
    try:
        import resource
    except ImportError:  # Windows
        return

    def cap(which: int, soft: int, hard: int | None = None) -> None:
        _, most = resource.getrlimit(which)
        hard = soft if hard is None else hard
        if most != resource.RLIM_INFINITY:
            soft, hard = min(soft, most), min(hard, most)
        try:  # noqa: SIM105  (contextlib would cost every run its import)
            resource.setrlimit(which, (soft, hard))
        except (OSError, ValueError):
            pass  # a platform that refuses one: the notice names what holds

    cap(resource.RLIMIT_CORE, 0)
    # the soft limit delivers SIGXCPU; the hard one a second later is the SIGKILL backstop
    cap(resource.RLIMIT_CPU, cfg.cpu_s, cfg.cpu_s + 1)
    if sys.platform == "linux":
        cap(resource.RLIMIT_DATA, cfg.data_bytes)
    # files the run writes in its work dir (its output goes through pipes, capped by the grader)
    cap(resource.RLIMIT_FSIZE, cfg.work_bytes)
    cap(resource.RLIMIT_NOFILE, cfg.nofile)


def _close_inherited() -> None:
    """Close every descriptor but stdin, stdout, stderr and the watch: ``posix_spawn`` closes
    nothing, so whatever the grader inherited (a CI wrapper's log, a caller's root-only file,
    make's jobserver pipe) would reach the script (issue 38, J). Windows passes the standard
    handles only (``subprocess``'s handle list)."""
    try:
        listed = [
            int(name)
            for name in os.listdir("/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd")
        ]
    except (OSError, ValueError):
        listed = []
    if not listed:  # nothing to list them by: every number up to the limit
        most = os.sysconf("SC_OPEN_MAX")  # -1 where unlimited
        os.closerange(WATCH_FD + 1, most if 0 < most <= 1 << 16 else 1 << 16)
        return
    for fd in listed:
        if fd > WATCH_FD:
            try:  # noqa: SIM105
                os.close(fd)
            except OSError:
                pass  # the listing's own descriptor, closed already


def _watch_the_grader() -> None:
    import _thread
    import signal

    def watch() -> None:
        try:  # noqa: SIM105
            os.read(WATCH_FD, 1)
        except OSError:
            pass
        # its own group (the run's id, whatever group the script moved this process to since),
        # then itself
        try:  # noqa: SIM105
            os.killpg(os.getpid(), signal.SIGKILL)
        except OSError:
            pass
        os.kill(os.getpid(), signal.SIGKILL)

    _thread.start_new_thread(watch, ())


def main(script: types.ModuleType) -> None:
    with open(sys.argv[1], "rb") as f:
        cfg = _sibling("_protocol").ChildConfig.from_wire(f.read())
    if os.name == "posix":
        _close_inherited()
        _watch_the_grader()
    os.chdir(cfg.workdir)
    _limits(cfg)
    if cfg.user_site:
        import site

        site.addsitedir(cfg.user_site)
    shown, source, args = cfg.submission, cfg.source, list(cfg.args)
    del cfg  # the submission can walk up to this frame: leave nothing of the grader
    sys.orig_argv = [sys.executable, shown, *args]  # as `python shown` would have it
    if os.name == "nt":  # print's "\n" as on Linux, not "\r\n": the same output, the same verdict
        sys.stdout.reconfigure(newline="\n")  # type: ignore[union-attr]
        sys.stderr.reconfigure(newline="\n")  # type: ignore[union-attr]
    os.write(1, READY + b"%020.6f" % sum(os.times()[:2]))  # one write: read whole
    script.run_submission(shown, source, args)


def run_and_exit() -> NoReturn:
    """``main``, then the interpreter's own exit without its module teardown (``_script``)."""
    script = _sibling("_script")
    script.run_and_exit(lambda: main(script))
    raise AssertionError("run_and_exit() returned")  # pragma: no cover


if __name__ == "__main__":
    run_and_exit()
