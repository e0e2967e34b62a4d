"""Folders a grade process keeps for a while in a place it shares (``/tmp``, ``/dev/shm``): a
run's folder, a fork server's template folder; and which of them are stale.

A folder is live while the process that made it holds a lock on it (``flock`` on the folder
itself, which the kernel releases however that process ends, SIGKILL included). A later grader
removes the folders of its own uid that nobody holds and that nothing changed for ten minutes:
those of a grader, server or holder that was killed, with a run's stdin and a checker's
expected output in them. (The ten minutes spare a grade from before the locks, whose folders
are never held, and a folder between its ``mkdir`` and its lock.) Never by the pid in a
name: a grader in another PID namespace sharing the place (a container, a test's launcher) sees
no such process, and would remove a live server's folder under it. Where there is no ``flock``
(Windows), nothing is held and nothing is removed as stale: the system's own temporary-file
cleaning is what remains there.

Loaded by path in the fork server (``template.py``) as well as imported: the standard library
only, and none of it that the server would not have loaded already.
"""

from __future__ import annotations

import contextlib
import os
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
LOCKS = fcntl is not None  # else nothing is held, and nothing removed as stale

_OPEN = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
_TRIES = 3
STALE_AFTER_S = 600.0  # longer than any run's time limit, with its slack


def make(parent: str, prefix: str) -> tuple[str, int | None]:
    """A new folder (0700) named ``prefix`` and random letters in ``parent``, and the descriptor
    that holds its lock until closed (None where there are no locks; closed on exec, so no run
    keeps it). Raises OSError where none can be made."""
    failure: OSError = FileExistsError(f"no new folder in {parent}")
    for _attempt in range(_TRIES):
        path = os.path.join(parent, prefix + os.urandom(6).hex())
        try:
            os.mkdir(path, 0o700)
        except FileExistsError as error:
            failure = error
            continue
        if fcntl is None:
            return path, None
        try:
            held = os.open(path, _OPEN)
        except FileNotFoundError as error:  # removed as stale before it was held: below
            failure = error
            continue
        fcntl.flock(held, fcntl.LOCK_EX)
        # another grader may have taken the lock between mkdir and flock and removed the
        # folder as nobody's: then it has no link left, and another is made
        if os.fstat(held).st_nlink > 0:
            return path, held
        os.close(held)
    raise failure


def remove_stale(parent: str, prefix: str, remove: Callable[[str], object]) -> None:
    """``remove`` each folder named ``prefix``... in ``parent`` that is this uid's, that no
    process holds and that nothing changed in for ``STALE_AFTER_S``, while holding it (no
    grader can take it meanwhile). ``remove`` must not raise; what it leaves stays."""
    if fcntl is None:
        return
    try:
        entries = [e for e in os.scandir(parent) if e.name.startswith(prefix)]
    except OSError:
        return
    now = time.time()
    for entry in entries:
        try:
            held = os.open(entry.path, _OPEN | os.O_NOFOLLOW)
        except OSError:
            continue  # another user's, no folder, gone since
        try:
            if _stale(held, now):
                remove(entry.path)  # still held: no grader takes it meanwhile
        finally:
            os.close(held)


def _stale(held: int, now: float) -> bool:
    """Whether the open folder ``held`` is this uid's (a tree another user made is not even
    root's to walk), nothing changed in it for ``STALE_AFTER_S``, and no process held it until
    now: then it is ``held``'s."""
    try:
        found = os.fstat(held)
        if found.st_uid != os.geteuid() or now - found.st_mtime < STALE_AFTER_S:
            return False
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False  # held: its process is alive
    return True


def release(held: int | None) -> None:
    """Let go of a folder's lock, once it is removed (a folder left unlocked is anyone's)."""
    if held is not None:
        with contextlib.suppress(OSError):
            os.close(held)
