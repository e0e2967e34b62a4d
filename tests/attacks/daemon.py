# The classic escape: double fork + setsid, so that killing the process group misses the grandchild.
import os
import sys
import time

try:
    ready_r, ready_w = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.write(ready_w, b"1")  # the grandchild is out of the group: now the parent may go
            time.sleep(30)
            os._exit(0)
        os._exit(0)
    os.read(ready_r, 1)
    print("OK forked")
except Exception as exc:
    print("BLOCKED", type(exc).__name__)
sys.stdout.flush()
