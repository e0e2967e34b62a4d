"""Holds 200 MiB in a child process it waits for: the peak is the child's, which the run's
accounting must count (rusage of the waited-for, a cgroup, or a tree watch)."""

import subprocess
import sys

CHILD = "b = bytearray(200 << 20)\nfor i in range(0, len(b), 4096): b[i] = 1\n"
subprocess.run([sys.executable, "-c", CHILD], check=True)
print(sum(int(x) for x in sys.stdin.readline().split()))
