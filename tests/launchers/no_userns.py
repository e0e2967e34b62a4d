"""Run a command where user namespaces cannot be made, as under Docker's default seccomp profile
or Ubuntu 24.04's AppArmor rule: ``python no_userns.py PROGRAM ARG...``.

A seccomp filter (inherited by everything the command starts) makes ``unshare`` fail with EPERM.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct
import sys

UNSHARE = {"x86_64": 272, "aarch64": 97}[os.uname().machine]


def insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


program = b"".join(
    [
        insn(0x20, 0),  # load the syscall number
        insn(0x15, UNSHARE, 0, 1),  # unshare?
        insn(0x06, 0x00050000 | errno.EPERM),  # then EPERM
        insn(0x06, 0x7FFF0000),  # else allow
    ]
)


class Fprog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))


libc = ctypes.CDLL(None, use_errno=True)
buffer = ctypes.create_string_buffer(program, len(program))
fprog = Fprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
if libc.prctl(38, 1, 0, 0, 0) or libc.prctl(22, 2, ctypes.byref(fprog), 0, 0):
    sys.exit(f"cannot install the filter: {os.strerror(ctypes.get_errno())}")
os.execv(sys.argv[1], sys.argv[1:])
