"""Unused uids for runs as root, each held by a file lock, so that two graders never share one.

A uid is taken by locking a file named after it in a root-only folder (``flock`` is released by
the kernel when its holder dies, however it dies: a crashed grader frees its uids). Within one
grader, a returned uid goes to the back of the line, so quick consecutive runs do not share a
uid whose killed processes are still being reaped.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import threading
from collections import deque

FIRST = 1_500_000_000  # far above any real account
COUNT = 1_000_000
_FOLDERS = ("/run/grade-uids", os.path.join(tempfile.gettempdir(), "grade-uids-0"))


def _lock_folder() -> str:
    for folder in _FOLDERS:
        with contextlib.suppress(OSError):
            os.makedirs(folder, mode=0o700, exist_ok=True)
            info = os.lstat(folder)
            # another user's folder (or a symlink) would let them hold our uids hostage
            if stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid():
                return folder
    raise OSError(f"no folder for uid locks among {', '.join(_FOLDERS)}")


class UidPool:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._free: deque[int] = deque()
        self._held: dict[int, int] = {}  # uid -> the descriptor holding its lock
        self._folder: str | None = None
        self._next = FIRST + os.getpid() % COUNT  # where to start looking; locks decide

    def take(self) -> int:
        import fcntl  # POSIX only: only Linux runs as root take uids

        with self._lock:
            if self._free:
                return self._free.popleft()
            if self._folder is None:
                self._folder = _lock_folder()
            for _ in range(COUNT):
                uid = self._next
                self._next = FIRST + (self._next - FIRST + 1) % COUNT
                fd = os.open(os.path.join(self._folder, str(uid)), os.O_CREAT | os.O_RDWR, 0o600)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    os.close(fd)
                    continue
                self._held[uid] = fd
                return uid
            raise OSError("every uid of the range is taken")

    def give(self, uid: int) -> None:
        with self._lock:
            self._free.append(uid)
