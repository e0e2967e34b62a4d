# Finding 9: what the run learns of how it was started: its argv, the interpreter's, its /proc.
import sys

print("argv", sys.argv)
print("orig_argv", getattr(sys, "orig_argv", None))
try:
    with open("/proc/self/cmdline", "rb") as f:
        print("cmdline", f.read())
except OSError as exc:
    print("cmdline", type(exc).__name__)
