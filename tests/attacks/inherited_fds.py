# Red team: descriptors the grader inherited and passed on (a CI runner's open files).
import contextlib
import os

for fd in range(5, 256):
    with contextlib.suppress(OSError):
        print("OK fd", fd, os.read(fd, 16), flush=True)
print("done", flush=True)
