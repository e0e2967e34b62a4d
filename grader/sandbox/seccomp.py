"""A small seccomp-BPF filter of our own: no sockets, no new processes, no exec, no escape hatches.

Why not libseccomp: the bindings need a system library that a venv cannot install, and the filter
is a deny-list of a few dozen syscalls that fits in one screen of BPF. The syscall numbers come
from the kernel's tables for x86_64 (tested here) and aarch64 (the generic table); on any other
architecture ``supported()`` is false and the layer is reported missing.

Threads stay allowed (``clone`` with CLONE_THREAD), so numpy and threading work; ``clone3`` answers
ENOSYS, which makes glibc fall back to ``clone``. Signals may only target the process itself.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct

_LD_W_ABS, _JEQ, _JSET, _RET = 0x20, 0x15, 0x45, 0x06
_ALLOW, _ERRNO, _KILL_PROCESS = 0x7FFF0000, 0x00050000, 0x80000000
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2
_CLONE_THREAD = 0x00010000
_OFF_NR, _OFF_ARCH, _OFF_ARG0 = 0, 4, 16  # offsets in struct seccomp_data (args are little-endian)

_DENIED_NAMES = (
    "socket",
    "socketpair",
    "fork",
    "vfork",
    "execve",
    "execveat",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "unshare",
    "setns",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "bpf",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "keyctl",
    "add_key",
    "request_key",
    "perf_event_open",
    "userfaultfd",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "reboot",
    "swapon",
    "swapoff",
    "open_tree",
    "move_mount",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
    "pidfd_getfd",
    "pidfd_send_signal",
    "kcmp",
    "name_to_handle_at",
    "open_by_handle_at",
    "acct",
    "quotactl",
    "tkill",
)
_SELF_SIGNAL = ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")  # arg 0 is a pid

# Since Linux 5.1 new syscalls get the same number on every architecture.
_UNIFIED = {
    "pidfd_send_signal": 424,
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "clone3": 435,
    "pidfd_getfd": 438,
    "mount_setattr": 442,
}
_X86_64 = {
    "socket": 41,
    "socketpair": 53,
    "clone": 56,
    "fork": 57,
    "vfork": 58,
    "execve": 59,
    "kill": 62,
    "ptrace": 101,
    "rt_sigqueueinfo": 129,
    "pivot_root": 155,
    "chroot": 161,
    "acct": 163,
    "mount": 165,
    "umount2": 166,
    "swapon": 167,
    "swapoff": 168,
    "reboot": 169,
    "init_module": 175,
    "delete_module": 176,
    "quotactl": 179,
    "tkill": 200,
    "tgkill": 234,
    "kexec_load": 246,
    "add_key": 248,
    "request_key": 249,
    "keyctl": 250,
    "unshare": 272,
    "rt_tgsigqueueinfo": 297,
    "perf_event_open": 298,
    "name_to_handle_at": 303,
    "open_by_handle_at": 304,
    "setns": 308,
    "process_vm_readv": 310,
    "process_vm_writev": 311,
    "kcmp": 312,
    "finit_module": 313,
    "kexec_file_load": 320,
    "bpf": 321,
    "execveat": 322,
    "userfaultfd": 323,
    **_UNIFIED,
}
_AARCH64 = {
    "umount2": 39,
    "mount": 40,
    "pivot_root": 41,
    "chroot": 51,
    "quotactl": 60,
    "acct": 89,
    "unshare": 97,
    "kexec_load": 104,
    "init_module": 105,
    "delete_module": 106,
    "ptrace": 117,
    "kill": 129,
    "tkill": 130,
    "tgkill": 131,
    "rt_sigqueueinfo": 138,
    "reboot": 142,
    "socket": 198,
    "socketpair": 199,
    "add_key": 217,
    "request_key": 218,
    "keyctl": 219,
    "clone": 220,
    "execve": 221,
    "swapon": 224,
    "swapoff": 225,
    "rt_tgsigqueueinfo": 240,
    "perf_event_open": 241,
    "name_to_handle_at": 264,
    "open_by_handle_at": 265,
    "setns": 268,
    "process_vm_readv": 270,
    "process_vm_writev": 271,
    "kcmp": 272,
    "finit_module": 273,
    "bpf": 280,
    "execveat": 281,
    "userfaultfd": 282,
    "kexec_file_load": 294,
    **_UNIFIED,
}
# (audit arch, syscall table, lowest number of a foreign ABI sharing the arch: x32 on x86_64)
_ARCHES = {
    "x86_64": (0xC000003E, _X86_64, 0x40000000),
    "aarch64": (0xC00000B7, _AARCH64, None),
}


def supported() -> bool:
    return os.uname().machine in _ARCHES


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k & 0xFFFFFFFF)


def build_filter(pid: int) -> bytes:
    """The BPF program for this machine's architecture, letting ``pid`` signal only itself."""
    arch, table, foreign = _ARCHES[os.uname().machine]
    deny = _insn(_RET, _ERRNO | errno.EPERM)
    prog = [
        _insn(_LD_W_ABS, _OFF_ARCH),
        _insn(_JEQ, arch, 1, 0),
        _insn(_RET, _KILL_PROCESS),
        _insn(_LD_W_ABS, _OFF_NR),
    ]
    if foreign is not None:  # x32 syscalls carry a high bit; refuse them all
        prog += [_insn(0x35, foreign, 0, 1), deny]  # JGE
    for name in _DENIED_NAMES:
        if name in table:
            prog += [_insn(_JEQ, table[name], 0, 1), deny]
    prog += [_insn(_JEQ, table["clone3"], 0, 1), _insn(_RET, _ERRNO | errno.ENOSYS)]
    # clone: allowed only for a new thread of this process
    prog += [
        _insn(_JEQ, table["clone"], 0, 4),
        _insn(_LD_W_ABS, _OFF_ARG0),
        _insn(_JSET, _CLONE_THREAD, 0, 1),
        _insn(_RET, _ALLOW),
        deny,
    ]
    own = (pid, 0, -pid)  # itself, its own group (it leads a session of one), minus for the group
    for name in _SELF_SIGNAL:
        prog += [_insn(_JEQ, table[name], 0, 6), _insn(_LD_W_ABS, _OFF_ARG0)]
        prog += [_insn(_JEQ, value, 3 - i, 0) for i, value in enumerate(own)]
        prog += [deny, _insn(_RET, _ALLOW)]
    prog.append(_insn(_RET, _ALLOW))
    return b"".join(prog)


class _Fprog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))


def set_no_new_privs() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")


def install(pid: int) -> None:
    """Load the filter on the calling thread (the child is still single-threaded here)."""
    program = build_filter(pid)
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _Fprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    set_no_new_privs()
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"seccomp: {os.strerror(err)}")
