"""Namespaces, the run's own root, and giving up privileges, for the sandboxed child.

``enter`` runs single-threaded (``unshare(CLONE_NEWUSER)`` refuses threaded callers): new user,
mount, PID, network, IPC and UTS namespaces, in which the run is uid 1000, not 0. ``build_root``
runs as pid 1 of the new PID namespace (a fresh /proc needs that) and builds the run's root from
nothing: a small tmpfs holding read-only binds of exactly the paths it is given, /dev/null, zero
and urandom, a fresh /proc, and a size- and inode-limited tmpfs as the work dir; then
``pivot_root`` into it, so that nothing else of the machine exists for the run.
"""

from __future__ import annotations

import ctypes
import errno
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
if __package__:
    from . import prctl
# else: loaded by path in the sandbox child, which sets ``prctl`` on this module itself

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 32, 4096, 16384, 1 << 18
_MNT_DETACH = 2
_ST_LOCKED = _MS_NOSUID | _MS_NODEV | _MS_NOEXEC  # statvfs flag bits equal the mount ones here
INSIDE_ID = 1000  # the run's uid and gid inside its namespace: an ordinary user, never root
_CAPABILITY_VERSION_3 = 0x20080522


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _raise(what: str) -> None:
    err = ctypes.get_errno()
    raise OSError(err, f"{what}: {os.strerror(err)}")


_ALL = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS


def enter(uid: int, gid: int, flags: int = _ALL) -> None:
    """New namespaces, with ``uid``/``gid`` outside seen as ``INSIDE_ID`` inside."""
    libc = _libc()
    if libc.unshare(flags) != 0:
        _raise("unshare")
    for name, text in (
        ("setgroups", "deny"),
        ("uid_map", f"{INSIDE_ID} {uid} 1"),
        ("gid_map", f"{INSIDE_ID} {gid} 1"),
    ):
        with open(f"/proc/self/{name}", "w") as f:
            f.write(text)


def make_template(
    folder: str, uid: int, gid: int, *, read: Iterable[str], devices: Iterable[str]
) -> Template:
    """Run once per fork server, in a process of its own that holds them (the template's
    holder): new user, mount, network, IPC and UTS namespaces, and ``populate`` at ``folder``
    in them (``folder`` stays an empty folder outside). Returns what ``clear`` keeps."""
    enter(uid, gid, CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS)
    _mount("none", "/", None, _MS_REC | _MS_PRIVATE)  # nothing below propagates to the host
    populate(folder, read=read, devices=devices)
    dirs: set[str] = set()
    leaves: set[str] = set()
    for path, subdirs, names in os.walk(folder):
        for name in [*subdirs, *names]:
            full = os.path.join(path, name)
            # a bind, a link or a device is a leaf: never walked into, never removed
            plain = os.path.isdir(full) and not os.path.islink(full) and not os.path.ismount(full)
            (dirs if plain else leaves).add(full)
        subdirs[:] = [d for d in subdirs if os.path.join(path, d) in dirs]
    return Template(frozenset(dirs), frozenset(leaves | {folder + "/proc"}))


class Template:
    """What a template's skeleton holds: folders to walk, and binds and links to keep."""

    __slots__ = ("dirs", "leaves")

    def __init__(self, dirs: frozenset[str], leaves: frozenset[str]) -> None:
        self.dirs, self.leaves = dirs - leaves, leaves


# setns(2) needs the user namespace first: it grants the capabilities the others ask for
JOINED = (
    ("user", CLONE_NEWUSER),
    ("mnt", CLONE_NEWNS),
    ("net", CLONE_NEWNET),
    ("ipc", CLONE_NEWIPC),
    ("uts", CLONE_NEWUTS),
)


_NAMES = tuple(name for name, _flag in JOINED)
_OWN = CLONE_NEWNS | CLONE_NEWPID


def join(fds: dict[str, int], names: Iterable[str] = _NAMES, unshare: int = _OWN) -> None:
    """Enter a template's namespaces ``names`` (``fds``: /proc/HOLDER/ns/NAME, opened by the
    server), then unshare what is the run's own (a PID namespace and a copy of the mount
    namespace)."""
    libc = _libc()
    wanted = set(names)
    for name, flag in JOINED:
        if name in wanted and libc.setns(fds[name], flag) != 0:
            _raise(f"setns {name}")
    if unshare and libc.unshare(unshare) != 0:
        _raise("unshare")


def new_pid_namespace(own: int, *, fresh: bool = True) -> None:
    """Make the caller's next child pid 1 of a new PID namespace (``own``: its own PID
    namespace, whose setns resets where its children are born); ``fresh`` False: only reset."""
    libc = _libc()
    if libc.setns(own, CLONE_NEWPID) != 0:
        _raise("setns pid")
    if fresh and libc.unshare(CLONE_NEWPID) != 0:
        _raise("unshare pid")


def clear(folder: str, template: Template) -> None:
    """Remove from the template's skeleton what an earlier run's set-up added (the mount points
    of its work dir and submission, left empty: its mounts died with its namespace)."""

    def walk(path: str, added: bool) -> None:
        for entry in os.scandir(path):
            if not added and entry.path in template.leaves:
                continue
            if entry.is_dir(follow_symlinks=False):
                walk(entry.path, added or entry.path not in template.dirs)
                if added or entry.path not in template.dirs:
                    os.rmdir(entry.path)
            elif added or entry.path not in template.dirs:
                os.unlink(entry.path)

    walk(folder, False)


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str = "") -> None:
    def encode(text: str | None) -> bytes | None:  # a path's own bytes, UTF-8 or not
        return os.fsencode(text) if text is not None else None

    libc = _libc()
    if libc.mount(encode(source), encode(target), encode(fstype), flags, encode(data or None)):
        _raise(f"mount {target}")


def _bind(source: str, target: str, *, writable: bool = False) -> None:
    if os.path.isdir(source):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))
    _mount(source, target, None, _MS_BIND | _MS_REC)
    if not writable:
        # In a user namespace the flags the host mount has (nosuid, nodev, noexec) are locked:
        # a remount must repeat them or it fails.
        locked = os.statvfs(target).f_flag & _ST_LOCKED
        _mount(None, target, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | locked)


def build_root(
    root: str,
    *,
    read: Iterable[str],
    files: Iterable[tuple[str, str]],
    devices: Iterable[str],
    workdir: str,
    work_bytes: int,
    work_inodes: int,
) -> None:
    """Make ``root`` the run's whole filesystem and enter it; ``files`` are (source, where)."""
    _mount("none", "/", None, _MS_REC | _MS_PRIVATE)  # nothing below propagates to the host
    populate(root, read=read, devices=devices)
    finish_root(root, files=files, workdir=workdir, work_bytes=work_bytes, work_inodes=work_inodes)


def populate(root: str, *, read: Iterable[str], devices: Iterable[str]) -> None:
    """The part of a root every run of the same allow-list shares: a small tmpfs at ``root``
    with read-only binds of ``read``, and ``devices`` bound writable."""
    _mount("tmpfs", root, "tmpfs", _MS_NOSUID | _MS_NODEV, "size=4m,nr_inodes=4096,mode=0755")
    for path in sorted(set(read), key=len):
        if os.path.islink(path):  # e.g. /lib -> usr/lib: the same link, to what is bound
            os.makedirs(os.path.dirname(root + path), exist_ok=True)
            if not os.path.lexists(root + path):
                os.symlink(os.readlink(path), root + path)
        elif os.path.exists(path):
            _bind(path, root + path)
    for device in devices:
        _bind(device, root + device, writable=True)
    os.makedirs(root + "/proc", exist_ok=True)


def finish_root(
    root: str,
    *,
    files: Iterable[tuple[str, str]],
    workdir: str,
    work_bytes: int,
    work_inodes: int,
    owner: int = INSIDE_ID,
    rebind: bool = False,
) -> None:
    """The run's own part of its root (``files`` bound read-only, a fresh work dir, /proc),
    then ``pivot_root`` into it: run as pid 1 of the run's PID namespace. ``rebind``: where
    the mount namespace was copied from one of another user namespace's, whose mounts the
    copy locks (pivot_root refuses a locked new root), ``root`` bound on itself first: a new
    mount, unlocked, whose submounts stay locked."""
    if rebind:
        _mount(root, root, None, _MS_BIND | _MS_REC)
    for source, where in files:
        _bind(source, root + where)
    os.makedirs(root + workdir, exist_ok=True)
    # ``owner``: the run's uid as the mounting process names it (outside the run's user
    # namespace, where pid 1 mounts as root before it enters it)
    options = f"size={work_bytes},nr_inodes={work_inodes},mode=0700,uid={owner},gid={owner}"
    _mount("tmpfs", root + workdir, "tmpfs", _MS_NOSUID | _MS_NODEV, options)
    # Mounted while the host's /proc is still visible (the kernel requires it) and by pid 1 of
    # the new PID namespace, so that it shows the run's processes only. Read-only: as root
    # without a uid of its own the run's uid maps to root, and /proc/sys would take the host's
    # kernel settings from it wherever no Landlock refuses the write.
    _mount("proc", root + "/proc", "proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC | _MS_RDONLY)
    os.chdir(root)
    libc = _libc()
    if libc.syscall(_pivot_root_number(), b".", b".") != 0:  # new root and old stacked on "."
        _raise("pivot_root")
    if libc.umount2(b".", _MNT_DETACH) != 0:  # the old root, with everything else, goes
        _raise("umount old root")
    _mount(None, "/", None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | _MS_NODEV)
    os.chdir(workdir)


def _pivot_root_number() -> int:
    return {"x86_64": 155, "aarch64": 41}[os.uname().machine]


def drop_capabilities(last_cap: int) -> None:
    """No capabilities left in any set: effective, permitted, inheritable, ambient, bounding.

    Inside its user namespace the run holds them all until here; ``last_cap`` comes from
    /proc/sys/kernel/cap_last_cap, read before the root changed.
    """
    libc = _libc()
    for cap in range(last_cap + 1):  # EPERM without CAP_SETPCAP: no bounding set to drop from
        prctl.prctl(prctl.PR_CAPBSET_DROP, cap, tolerate=(errno.EPERM,))
    prctl.prctl(prctl.PR_CAP_AMBIENT, prctl.PR_CAP_AMBIENT_CLEAR_ALL)
    header = (ctypes.c_uint32 * 2)(_CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()  # two {effective, permitted, inheritable}, all zero
    if libc.capset(header, data) != 0:
        _raise("capset")
