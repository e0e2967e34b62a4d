# Calls every syscall of the policy with arguments the kernel rejects (-1 everywhere), plus chosen
# ones on both sides of an argument rule, and prints what came back: the policy as seen from inside.
# Input: JSON {"calls": [[label, number, [args...]], ...]}; "self" in args is this process's pid.
import ctypes
import errno
import json
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
pid = os.getpid()
for label, number, args in json.load(sys.stdin)["calls"]:
    values = [ctypes.c_long(pid if a == "self" else a) for a in args]
    ctypes.set_errno(0)
    result = libc.syscall(ctypes.c_long(number), *values)
    err = ctypes.get_errno()
    print(label, "ok" if result >= 0 else errno.errorcode.get(err, str(err)), flush=True)
