"""The syscall policy of a sandboxed run, as data: what is allowed, on which arguments, and why.

Anything not in ``POLICY`` fails with ENOSYS (so a library falls back as on an older kernel, and a
syscall newer than this table is refused the day it appears). A few are refused by name with
EPERM, so that a student's program gets ``PermissionError`` where "not implemented" would mislead.
``seccomp.py`` compiles this table; ``tests/golden/syscalls.txt`` pins what a probe sees under it.

Numbers are the kernel's, per architecture, checked against libseccomp's tables by a test.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

SELF = "self"  # stands for the run's own pid, filled in when the filter is installed


# Plain classes, not dataclasses: the sandbox child loads this module in every run, and the
# dataclasses module would cost it milliseconds of imports.
class Arg:
    """Argument ``index`` equals ``value`` (``SELF``: the pid) after masking with ``mask``.

    Only the low 32 bits are compared: every argument filtered here is an ``int`` (or flags that
    fit in one) for the kernel, which ignores the upper half of the register.
    """

    __slots__ = ("index", "mask", "value")

    def __init__(self, index: int, value: int | str, mask: int = 0xFFFFFFFF) -> None:
        self.index, self.value, self.mask = index, value, mask


class Rule:
    """Allowed when any of ``when`` holds (each a conjunction of ``Arg``s); else ``errno``."""

    __slots__ = ("errno", "when")

    def __init__(self, when: tuple[tuple[Arg, ...], ...] = ((),), errno: str = "EPERM") -> None:
        self.when = when  # ((),): always; (): never
        self.errno = errno  # when the arguments do not match, or for a syscall denied by name


ALLOW = Rule()
DENY = Rule(when=())


def _names(text: str) -> list[str]:
    return text.split()


def _any(index: int, *values: int | str) -> tuple[tuple[Arg, ...], ...]:
    return tuple((Arg(index, v),) for v in values)


_OWN = _any(0, 0, SELF)  # 0 means "myself" for these
_OWN_OR_GROUP = _any(0, 0, SELF, f"-{SELF}")  # the run leads a process group of its own
CLONE_THREAD = 0x00010000
MAP_SHARED_TYPE, MAP_PRIVATE, MAP_GROWSDOWN = 0x03, 0x02, 0x0100
_IOCTLS = (0x5401, 0x5413, 0x541B, 0x5421, 0x5450, 0x5451)  # TCGETS TIOCGWINSZ FIONREAD FIONBIO
_FCNTLS = (0, 1, 2, 3, 4, 1030, 1032)  # DUPFD GETFD SETFD GETFL SETFL DUPFD_CLOEXEC GETPIPE_SZ
_PRCTLS = (3, 15, 16, 23, 0x53564D41)  # GET_DUMPABLE SET_NAME GET_NAME CAPBSET_READ SET_VMA

# name -> (rule, why). Grouped by what CPython, numpy and a student's script need.
POLICY: Mapping[str, tuple[Rule, str]] = {
    # files, through descriptors and paths that Landlock and the read-only root already bound
    **dict.fromkeys(
        _names(
            "read write readv writev pread64 pwrite64 preadv pwritev preadv2 pwritev2 open "
            "openat close close_range lseek fstat newfstatat stat lstat statx statfs fstatfs "
            "access faccessat faccessat2 readlink readlinkat getdents64 getcwd chdir fchdir "
            "mkdir mkdirat rmdir unlink unlinkat rename renameat renameat2 link linkat symlink "
            "symlinkat truncate ftruncate fsync fdatasync umask"
        ),
        (ALLOW, "file I/O: what the run may touch is decided by the mounts and Landlock"),
    ),
    "fallocate": (
        Rule(((Arg(1, 0),),)),
        "mode 0 only: FALLOC_FL_KEEP_SIZE would reserve disk past RLIMIT_FSIZE",
    ),
    **dict.fromkeys(
        _names(
            "dup dup2 dup3 pipe pipe2 poll ppoll select pselect6 epoll_create epoll_create1 "
            "epoll_ctl epoll_wait epoll_pwait epoll_pwait2 eventfd2"
        ),
        (ALLOW, "descriptors and waiting on them (selectors, asyncio), all within the run"),
    ),
    "fcntl": (
        Rule(_any(1, *_FCNTLS)),
        "descriptor flags only: no leases (they stall other processes' open) and no locks",
    ),
    "ioctl": (
        Rule(_any(1, *_IOCTLS), errno="ENOTTY"),
        "isatty, terminal size and non-blocking I/O; never TIOCSTI or a device's own ioctls",
    ),
    # memory
    **dict.fromkeys(
        _names("brk munmap mremap mprotect madvise mbind get_mempolicy set_mempolicy membarrier"),
        (ALLOW, "the allocator, numpy and OpenBLAS manage their own memory"),
    ),
    "mmap": (
        Rule(((Arg(3, MAP_PRIVATE, MAP_SHARED_TYPE | MAP_GROWSDOWN),),)),
        "private mappings only: shared ones (anonymous or of /dev/zero) and MAP_GROWSDOWN ones "
        "escape RLIMIT_DATA",
    ),
    # threads
    "clone": (
        Rule(((Arg(0, CLONE_THREAD, CLONE_THREAD),),)),
        "threads (threading, OpenBLAS); a new process never",
    ),
    "clone3": (
        Rule(when=(), errno="ENOSYS"),
        "its flags sit in memory a filter cannot read: glibc falls back to clone",
    ),
    **dict.fromkeys(
        _names(
            "futex futex_waitv set_robust_list get_robust_list set_tid_address rseq gettid "
            "sched_yield sched_getparam sched_getscheduler sched_get_priority_max "
            "sched_get_priority_min arch_prctl"
        ),
        (ALLOW, "threads and their synchronisation"),
    ),
    "sched_getaffinity": (Rule(_OWN), "os.sched_getaffinity and OpenBLAS, of the run only"),
    "prctl": (Rule(_any(0, *_PRCTLS)), "thread names and reading its own state"),
    # signals, to itself only
    **dict.fromkeys(
        _names(
            "rt_sigaction rt_sigprocmask rt_sigreturn rt_sigpending rt_sigtimedwait rt_sigsuspend "
            "sigaltstack setitimer getitimer alarm restart_syscall"
        ),
        (ALLOW, "signal handling of its own: signal.alarm, KeyboardInterrupt"),
    ),
    "kill": (Rule(_OWN_OR_GROUP), "signals to itself (os.kill(os.getpid(), ...))"),
    "tgkill": (Rule(((Arg(0, SELF),),)), "raise() and pthread_kill, within the run"),
    "rt_sigqueueinfo": (Rule(_OWN), "signals to itself"),
    "rt_tgsigqueueinfo": (Rule(((Arg(0, SELF),),)), "signals to its own threads"),
    "tkill": (DENY, "obsolete and unscoped: glibc uses tgkill"),
    # about itself
    **dict.fromkeys(
        _names(
            "getpid getppid getuid geteuid getgid getegid getresuid getresgid getgroups getpgrp "
            "getpgid getsid getrlimit getrusage times sysinfo uname getcpu getpriority"
        ),
        (ALLOW, "reading its own identity, limits and usage"),
    ),
    "setrlimit": (ALLOW, "lowering its own limits; raising a hard one needs a capability"),
    "prlimit64": (Rule(_OWN), "resource.getrlimit/setrlimit of itself, never of another pid"),
    # time and randomness
    **dict.fromkeys(
        _names("clock_gettime clock_getres clock_nanosleep nanosleep gettimeofday time getrandom"),
        (ALLOW, "time.time, time.sleep, random and secrets"),
    ),
    **dict.fromkeys(
        _names("exit exit_group wait4 waitid"),
        (ALLOW, "ending (and reaping threads; it has no children)"),
    ),
    # denied by name, so that the student reads PermissionError
    **dict.fromkeys(
        _names(
            "socket socketpair connect bind listen accept accept4 sendto recvfrom sendmsg recvmsg "
            "shutdown"
        ),
        (DENY, "no network of any kind"),
    ),
    **dict.fromkeys(
        _names("fork vfork execve execveat"), (DENY, "no new processes, no other programs")
    ),
    **dict.fromkeys(
        _names(
            "chmod fchmod fchmodat fchmodat2 chown fchown lchown fchownat utime utimes utimensat "
            "futimesat setxattr lsetxattr fsetxattr removexattr flock"
        ),
        (DENY, "file metadata and locks: Landlock does not cover them"),
    ),
    **dict.fromkeys(
        _names(
            "ptrace process_vm_readv process_vm_writev kcmp pidfd_open pidfd_getfd "
            "pidfd_send_signal"
        ),
        (DENY, "no looking into or signalling other processes"),
    ),
    **dict.fromkeys(
        _names(
            "unshare setns mount umount2 pivot_root chroot open_tree move_mount fsopen fsmount "
            "fspick mount_setattr name_to_handle_at open_by_handle_at"
        ),
        (DENY, "no new namespaces, mounts or handles around the mount table"),
    ),
    **dict.fromkeys(
        _names(
            "setuid setgid setresuid setresgid setgroups setsid setpgid capset ioprio_set "
            "sched_setscheduler sched_setparam setpriority sched_setaffinity"
        ),
        # affinity too: a run pinning itself beside the same submission's other runs made its
        # waits behind them look like the machine's load, an endless loop a grader error
        (DENY, "identity, sessions and scheduling stay as the grader set them"),
    ),
    **dict.fromkeys(
        _names(
            "bpf io_uring_setup io_uring_enter io_uring_register keyctl add_key request_key "
            "perf_event_open userfaultfd memfd_create kexec_load init_module finit_module "
            "delete_module reboot"
        ),
        (DENY, "kernel interfaces no exercise needs, each a known escape route"),
    ),
}

# From Linux 5.1 on, new syscalls have one number on every architecture.
_UNIFIED: dict[str, int] = {
    "pidfd_send_signal": 424,
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsmount": 432,
    "fspick": 433,
    "pidfd_open": 434,
    "clone3": 435,
    "close_range": 436,
    "pidfd_getfd": 438,
    "faccessat2": 439,
    "epoll_pwait2": 441,
    "mount_setattr": 442,
    "futex_waitv": 449,
    "fchmodat2": 452,
}
X86_64: dict[str, int] = {
    "read": 0,
    "write": 1,
    "open": 2,
    "close": 3,
    "stat": 4,
    "fstat": 5,
    "lstat": 6,
    "poll": 7,
    "lseek": 8,
    "mmap": 9,
    "mprotect": 10,
    "munmap": 11,
    "brk": 12,
    "rt_sigaction": 13,
    "rt_sigprocmask": 14,
    "rt_sigreturn": 15,
    "ioctl": 16,
    "pread64": 17,
    "pwrite64": 18,
    "readv": 19,
    "writev": 20,
    "access": 21,
    "pipe": 22,
    "select": 23,
    "sched_yield": 24,
    "mremap": 25,
    "madvise": 28,
    "dup": 32,
    "dup2": 33,
    "nanosleep": 35,
    "getitimer": 36,
    "alarm": 37,
    "setitimer": 38,
    "getpid": 39,
    "socket": 41,
    "connect": 42,
    "accept": 43,
    "sendto": 44,
    "recvfrom": 45,
    "sendmsg": 46,
    "recvmsg": 47,
    "shutdown": 48,
    "bind": 49,
    "listen": 50,
    "socketpair": 53,
    "clone": 56,
    "fork": 57,
    "vfork": 58,
    "execve": 59,
    "exit": 60,
    "wait4": 61,
    "kill": 62,
    "uname": 63,
    "fcntl": 72,
    "flock": 73,
    "fsync": 74,
    "fdatasync": 75,
    "truncate": 76,
    "ftruncate": 77,
    "getcwd": 79,
    "chdir": 80,
    "fchdir": 81,
    "rename": 82,
    "mkdir": 83,
    "rmdir": 84,
    "link": 86,
    "unlink": 87,
    "symlink": 88,
    "readlink": 89,
    "chmod": 90,
    "fchmod": 91,
    "chown": 92,
    "fchown": 93,
    "lchown": 94,
    "umask": 95,
    "gettimeofday": 96,
    "getrlimit": 97,
    "getrusage": 98,
    "sysinfo": 99,
    "times": 100,
    "ptrace": 101,
    "getuid": 102,
    "getgid": 104,
    "setuid": 105,
    "setgid": 106,
    "geteuid": 107,
    "getegid": 108,
    "setpgid": 109,
    "getppid": 110,
    "getpgrp": 111,
    "setsid": 112,
    "getgroups": 115,
    "setgroups": 116,
    "setresuid": 117,
    "getresuid": 118,
    "setresgid": 119,
    "getresgid": 120,
    "getpgid": 121,
    "getsid": 124,
    "capset": 126,
    "rt_sigpending": 127,
    "rt_sigtimedwait": 128,
    "rt_sigqueueinfo": 129,
    "rt_sigsuspend": 130,
    "sigaltstack": 131,
    "utime": 132,
    "statfs": 137,
    "fstatfs": 138,
    "getpriority": 140,
    "setpriority": 141,
    "sched_setparam": 142,
    "sched_getparam": 143,
    "sched_setscheduler": 144,
    "sched_getscheduler": 145,
    "sched_get_priority_max": 146,
    "sched_get_priority_min": 147,
    "pivot_root": 155,
    "prctl": 157,
    "arch_prctl": 158,
    "setrlimit": 160,
    "chroot": 161,
    "mount": 165,
    "umount2": 166,
    "reboot": 169,
    "init_module": 175,
    "delete_module": 176,
    "gettid": 186,
    "setxattr": 188,
    "lsetxattr": 189,
    "fsetxattr": 190,
    "removexattr": 197,
    "tkill": 200,
    "time": 201,
    "futex": 202,
    "sched_setaffinity": 203,
    "sched_getaffinity": 204,
    "epoll_create": 213,
    "getdents64": 217,
    "set_tid_address": 218,
    "restart_syscall": 219,
    "clock_gettime": 228,
    "clock_getres": 229,
    "clock_nanosleep": 230,
    "exit_group": 231,
    "epoll_wait": 232,
    "epoll_ctl": 233,
    "tgkill": 234,
    "utimes": 235,
    "mbind": 237,
    "set_mempolicy": 238,
    "get_mempolicy": 239,
    "kexec_load": 246,
    "waitid": 247,
    "add_key": 248,
    "request_key": 249,
    "keyctl": 250,
    "ioprio_set": 251,
    "openat": 257,
    "mkdirat": 258,
    "fchownat": 260,
    "futimesat": 261,
    "newfstatat": 262,
    "unlinkat": 263,
    "renameat": 264,
    "linkat": 265,
    "symlinkat": 266,
    "readlinkat": 267,
    "fchmodat": 268,
    "faccessat": 269,
    "pselect6": 270,
    "ppoll": 271,
    "unshare": 272,
    "set_robust_list": 273,
    "get_robust_list": 274,
    "utimensat": 280,
    "epoll_pwait": 281,
    "fallocate": 285,
    "accept4": 288,
    "eventfd2": 290,
    "epoll_create1": 291,
    "dup3": 292,
    "pipe2": 293,
    "preadv": 295,
    "pwritev": 296,
    "rt_tgsigqueueinfo": 297,
    "perf_event_open": 298,
    "prlimit64": 302,
    "name_to_handle_at": 303,
    "open_by_handle_at": 304,
    "setns": 308,
    "getcpu": 309,
    "process_vm_readv": 310,
    "process_vm_writev": 311,
    "kcmp": 312,
    "finit_module": 313,
    "renameat2": 316,
    "getrandom": 318,
    "memfd_create": 319,
    "bpf": 321,
    "execveat": 322,
    "userfaultfd": 323,
    "membarrier": 324,
    "preadv2": 327,
    "pwritev2": 328,
    "statx": 332,
    "rseq": 334,
    **_UNIFIED,
}
AARCH64: dict[str, int] = {
    "setxattr": 5,
    "lsetxattr": 6,
    "fsetxattr": 7,
    "removexattr": 14,
    "getcwd": 17,
    "eventfd2": 19,
    "epoll_create1": 20,
    "epoll_ctl": 21,
    "epoll_pwait": 22,
    "dup": 23,
    "dup3": 24,
    "fcntl": 25,
    "ioctl": 29,
    "ioprio_set": 30,
    "flock": 32,
    "mkdirat": 34,
    "unlinkat": 35,
    "symlinkat": 36,
    "linkat": 37,
    "renameat": 38,
    "umount2": 39,
    "mount": 40,
    "pivot_root": 41,
    "statfs": 43,
    "fstatfs": 44,
    "truncate": 45,
    "ftruncate": 46,
    "fallocate": 47,
    "faccessat": 48,
    "chdir": 49,
    "fchdir": 50,
    "chroot": 51,
    "fchmod": 52,
    "fchmodat": 53,
    "fchownat": 54,
    "fchown": 55,
    "openat": 56,
    "close": 57,
    "pipe2": 59,
    "getdents64": 61,
    "lseek": 62,
    "read": 63,
    "write": 64,
    "readv": 65,
    "writev": 66,
    "pread64": 67,
    "pwrite64": 68,
    "preadv": 69,
    "pwritev": 70,
    "pselect6": 72,
    "ppoll": 73,
    "readlinkat": 78,
    "newfstatat": 79,
    "fstat": 80,
    "fsync": 82,
    "fdatasync": 83,
    "utimensat": 88,
    "capset": 91,
    "exit": 93,
    "exit_group": 94,
    "waitid": 95,
    "set_tid_address": 96,
    "unshare": 97,
    "futex": 98,
    "set_robust_list": 99,
    "get_robust_list": 100,
    "nanosleep": 101,
    "getitimer": 102,
    "setitimer": 103,
    "kexec_load": 104,
    "init_module": 105,
    "delete_module": 106,
    "clock_gettime": 113,
    "clock_getres": 114,
    "clock_nanosleep": 115,
    "ptrace": 117,
    "sched_setparam": 118,
    "sched_setscheduler": 119,
    "sched_getscheduler": 120,
    "sched_getparam": 121,
    "sched_setaffinity": 122,
    "sched_getaffinity": 123,
    "sched_yield": 124,
    "sched_get_priority_max": 125,
    "sched_get_priority_min": 126,
    "restart_syscall": 128,
    "kill": 129,
    "tkill": 130,
    "tgkill": 131,
    "sigaltstack": 132,
    "rt_sigsuspend": 133,
    "rt_sigaction": 134,
    "rt_sigprocmask": 135,
    "rt_sigpending": 136,
    "rt_sigtimedwait": 137,
    "rt_sigqueueinfo": 138,
    "rt_sigreturn": 139,
    "setpriority": 140,
    "getpriority": 141,
    "reboot": 142,
    "setgid": 144,
    "setuid": 146,
    "setresuid": 147,
    "getresuid": 148,
    "setresgid": 149,
    "getresgid": 150,
    "times": 153,
    "setpgid": 154,
    "getpgid": 155,
    "getsid": 156,
    "setsid": 157,
    "getgroups": 158,
    "setgroups": 159,
    "uname": 160,
    "getrlimit": 163,
    "setrlimit": 164,
    "getrusage": 165,
    "umask": 166,
    "prctl": 167,
    "getcpu": 168,
    "gettimeofday": 169,
    "getpid": 172,
    "getppid": 173,
    "getuid": 174,
    "geteuid": 175,
    "getgid": 176,
    "getegid": 177,
    "gettid": 178,
    "sysinfo": 179,
    "socket": 198,
    "socketpair": 199,
    "bind": 200,
    "listen": 201,
    "accept": 202,
    "connect": 203,
    "sendto": 206,
    "recvfrom": 207,
    "shutdown": 210,
    "sendmsg": 211,
    "recvmsg": 212,
    "brk": 214,
    "munmap": 215,
    "mremap": 216,
    "add_key": 217,
    "request_key": 218,
    "keyctl": 219,
    "clone": 220,
    "execve": 221,
    "mmap": 222,
    "mprotect": 226,
    "madvise": 233,
    "mbind": 235,
    "get_mempolicy": 236,
    "set_mempolicy": 237,
    "rt_tgsigqueueinfo": 240,
    "perf_event_open": 241,
    "accept4": 242,
    "wait4": 260,
    "prlimit64": 261,
    "name_to_handle_at": 264,
    "open_by_handle_at": 265,
    "setns": 268,
    "process_vm_readv": 270,
    "process_vm_writev": 271,
    "kcmp": 272,
    "finit_module": 273,
    "renameat2": 276,
    "getrandom": 278,
    "memfd_create": 279,
    "bpf": 280,
    "execveat": 281,
    "userfaultfd": 282,
    "membarrier": 283,
    "preadv2": 286,
    "pwritev2": 287,
    "statx": 291,
    "rseq": 293,
    **_UNIFIED,
}
# (audit arch, numbers, lowest number of a foreign ABI on the same arch: x32 on x86_64)
ARCHES: Mapping[str, tuple[int, dict[str, int], int | None]] = {
    "x86_64": (0xC000003E, X86_64, 0x40000000),
    "aarch64": (0xC00000B7, AARCH64, None),
}
