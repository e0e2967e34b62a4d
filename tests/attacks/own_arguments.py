# Finding 9: what the run learns of how it was started: its argv, the interpreter's, its /proc.
import sys

print("argv", sys.argv)
print("orig_argv", getattr(sys, "orig_argv", None))
try:
    with open("/proc/self/cmdline", "rb") as f:
        print("cmdline", f.read())
except OSError as exc:
    print("cmdline", type(exc).__name__)
frame = sys._getframe()
names = sorted(frame.f_locals)
while frame.f_back is not None:  # what the frames below the submission still hold
    frame = frame.f_back
    names += sorted(frame.f_locals)
print("locals", names)
