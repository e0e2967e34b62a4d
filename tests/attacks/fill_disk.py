# Finding 7: fill the work dir's disk and inodes, and take shared memory that RLIMIT_DATA does
# not count. Input: JSON {"mb": n, "files": n, "shared_mb": n}.
import json
import mmap
import os
import sys

args = json.load(sys.stdin)
try:  # in files of half a MB: each stays under the output limit (RLIMIT_FSIZE)
    for i in range(args["mb"] * 2):
        with open(f"big{i}", "wb") as f:
            f.write(b"\0" * (1 << 19))
    print("OK disk", args["mb"], "MB", flush=True)
except OSError as exc:
    print("BLOCKED disk", exc.strerror, flush=True)
for i in range(args["mb"] * 2):
    if os.path.exists(f"big{i}"):
        os.remove(f"big{i}")
try:
    for i in range(args["files"]):
        open(f"f{i}", "w").close()
    print("OK inodes", args["files"], flush=True)
except OSError as exc:
    print("BLOCKED inodes", exc.strerror, flush=True)
try:
    shared = mmap.mmap(-1, args["shared_mb"] << 20, flags=mmap.MAP_SHARED)
    shared[::4096] = b"x" * len(shared[::4096])
    print("OK shared memory", args["shared_mb"], "MB", flush=True)
except (OSError, ValueError) as exc:
    print("BLOCKED shared memory", type(exc).__name__, flush=True)
