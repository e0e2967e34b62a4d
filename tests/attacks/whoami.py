# Finding 4: which uid the run is, as the machine sees it (uid_map maps it outward).
import os

print("inside", os.getuid())
try:
    with open("/proc/self/uid_map") as f:
        print("map", f.read().split())
except OSError as exc:
    print("map", type(exc).__name__)
