"""Landlock through raw syscalls: a filesystem allow-list, no TCP, scoped signals and sockets.

Runs in the sandboxed child. Landlock stacks on top of any privilege, root included, so it binds a
submission even where the grader cannot switch to another uid. It does not stop ``stat()`` of
hidden files, UDP or path unix sockets: the mount and seccomp layers cover those.
"""

from __future__ import annotations

import ctypes
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446  # the same on every architecture
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_WRITE_DIR = sum(1 << b for b in range(4, 13))  # remove, make char/dir/reg/sock/fifo/block/sym
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1

_FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV
READ = EXECUTE | READ_FILE | READ_DIR


class _RulesetAttr(ctypes.Structure):
    _fields_ = (
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    )


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = (("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def abi_version() -> int:
    """The kernel's Landlock ABI, 0 where Landlock is missing or disabled."""
    try:
        version = _libc().syscall(
            _CREATE_RULESET, None, ctypes.c_size_t(0), _CREATE_RULESET_VERSION
        )
    except (OSError, AttributeError):
        return 0
    return max(0, int(version))


def _fs_rights(abi: int) -> int:
    rights = READ | WRITE_FILE | _WRITE_DIR
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    if abi >= 5:
        rights |= IOCTL_DEV
    return rights


def _check(result: int, what: str) -> int:
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"landlock {what}: {os.strerror(err)}")
    return result


def restrict(
    *, read: Iterable[str], listed: Iterable[str] = (), write: Iterable[str], abi: int
) -> None:
    """Allow reading ``read``, listing (not reading) ``listed``, everything on ``write``, and
    nothing else; no TCP; scoped IPC.

    The caller must have set no_new_privs. Paths that do not exist are skipped.
    """
    libc = _libc()
    handled = _fs_rights(abi)
    attr = _RulesetAttr(
        handled,
        (NET_BIND_TCP | NET_CONNECT_TCP) if abi >= 4 else 0,
        (SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL) if abi >= 6 else 0,
    )
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    ruleset = _check(
        libc.syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), 0),
        "create_ruleset",
    )
    try:
        for paths, rights in ((read, READ), (listed, READ_DIR), (write, handled)):
            for path in paths:
                _allow(libc, ruleset, path, rights & handled)
        _check(libc.syscall(_RESTRICT_SELF, ruleset, 0), "restrict_self")
    finally:
        os.close(ruleset)


def _allow(libc: ctypes.CDLL, ruleset: int, path: str, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not os.path.isdir(path):
            rights &= _FILE_RIGHTS
        rule = _PathBeneath(rights, fd)
        _check(
            libc.syscall(_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0),
            f"add_rule {path}",
        )
    finally:
        os.close(fd)
