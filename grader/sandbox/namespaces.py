"""Namespaces and mounts for the sandboxed child: no network, private IPC, hidden folders.

Runs in the child, single-threaded (``unshare(CLONE_NEWUSER)`` refuses multithreaded callers).
The new user namespace works unprivileged and confines whatever capabilities the child has to
objects it owns; the network namespace has only a downed loopback; tmpfs mounts hide the folders
that hold answers (so even ``stat()`` finds nothing) and give the child a private /tmp and /dev/shm.
"""

from __future__ import annotations

import ctypes
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWNET = 0x10000000, 0x40000000
_MS_NOSUID, _MS_NODEV, _MS_BIND, _MS_REC, _MS_PRIVATE = 2, 4, 4096, 16384, 1 << 18


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _raise(what: str) -> None:
    err = ctypes.get_errno()
    raise OSError(err, f"{what}: {os.strerror(err)}")


def enter(uid: int, gid: int) -> None:
    """New user, mount, network, IPC and UTS namespaces, keeping ``uid``/``gid`` as they are."""
    libc = _libc()
    flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS
    if libc.unshare(flags) != 0:
        _raise("unshare")
    for name, text in (
        ("setgroups", "deny"),
        ("uid_map", f"{uid} {uid} 1"),
        ("gid_map", f"{gid} {gid} 1"),
    ):
        with open(f"/proc/self/{name}", "w") as f:
            f.write(text)


def _mount(source: str, target: str, fstype: str | None, flags: int, data: str | None) -> None:
    def encode(text: str | None) -> bytes | None:
        return text.encode() if text is not None else None

    libc = _libc()
    if libc.mount(encode(source), encode(target), encode(fstype), flags, encode(data)) != 0:
        _raise(f"mount {target}")


def _inside(path: str, folder: str) -> bool:
    return os.path.commonpath([path, folder]) == folder


def hide(folders: Iterable[str], *, keep: Iterable[str]) -> None:
    """Cover each folder with an empty tmpfs, then bind back the ``keep`` paths lying inside it.

    ``keep`` holds what the child needs (its work dir, the submission, Python) even when it lives
    under a covered folder, e.g. a venv or the work dir in /tmp.
    """
    _mount("none", "/", None, _MS_REC | _MS_PRIVATE, None)
    kept = [os.path.realpath(k) for k in keep if os.path.exists(k)]
    for folder in sorted({os.path.realpath(f) for f in folders}, key=len):
        if not os.path.isdir(folder):  # missing, or already under a covered folder
            continue
        inner = [k for k in kept if _inside(k, folder) and k != folder]
        handles = {k: os.open(k, os.O_PATH | os.O_CLOEXEC) for k in inner}
        try:
            _mount("tmpfs", folder, "tmpfs", _MS_NOSUID | _MS_NODEV, "size=16m,mode=1777")
            for path, fd in handles.items():
                if os.path.isdir(f"/proc/self/fd/{fd}"):
                    os.makedirs(path, exist_ok=True)
                else:
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    open(path, "a").close()
                _mount(f"/proc/self/fd/{fd}", path, None, _MS_BIND | _MS_REC, None)
        finally:
            for fd in handles.values():
                os.close(fd)
