# Kills the grader that runs it, and tries to trace it.
import ctypes
import os
import signal

ppid = os.getppid()
try:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.ptrace(16, ppid, None, None) != 0:  # PTRACE_ATTACH
        raise OSError(ctypes.get_errno(), "ptrace")
    print("OK ptrace")
except Exception as exc:
    print("BLOCKED ptrace", type(exc).__name__)
for sig in (signal.SIGTERM, signal.SIGKILL):
    try:
        os.kill(ppid, sig)
        print("OK kill", sig)
    except Exception as exc:
        print("BLOCKED kill", type(exc).__name__)
try:
    os.killpg(os.getpgid(ppid), signal.SIGKILL)
    print("OK killpg")
except Exception as exc:
    print("BLOCKED killpg", type(exc).__name__)
