"""Holds 200 MiB at once, every page touched, then answers the add exercise right: its peak
memory is ~200 MiB plus the interpreter's."""

import sys

held = bytearray(200 << 20)
for i in range(0, len(held), 4096):
    held[i] = 1
print(sum(int(x) for x in sys.stdin.readline().split()))
