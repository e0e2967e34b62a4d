"""Holds 200 MiB at once, every page touched, says so, then waits for ever: its run ends at
its time limit, killed, and its peak must still be counted."""

import time

held = bytearray(200 << 20)
for i in range(0, len(held), 4096):
    held[i] = 1
print("held", flush=True)
while True:
    time.sleep(1)
