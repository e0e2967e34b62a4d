# Kills the grader that runs it, and tries to trace it.
import ctypes
import os
import signal

ppid = os.getppid()
try:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.ptrace(16, ppid, None, None) != 0:  # PTRACE_ATTACH
        raise OSError(ctypes.get_errno(), "ptrace")
    print("OK ptrace", flush=True)
except Exception as exc:
    print("BLOCKED ptrace", type(exc).__name__, flush=True)
for sig in (signal.SIGTERM, signal.SIGKILL):
    try:
        os.kill(ppid, sig)
        print("OK kill", sig, flush=True)
    except Exception as exc:
        print("BLOCKED kill", type(exc).__name__, flush=True)
try:
    group = os.getpgid(ppid)
    if group in (0, os.getpgrp()):  # 0: its parent's group lies outside what it can name
        raise ProcessLookupError(f"cannot name the parent's group ({group})")
    os.killpg(group, signal.SIGKILL)
    print("OK killpg", flush=True)
except Exception as exc:
    print("BLOCKED killpg", type(exc).__name__, flush=True)
