# The classic escape: double fork + setsid, so that killing the process group misses the grandchild.
import os
import sys
import time

try:
    ready_r, ready_w = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            # out of the group: now the parent may go; the pid lets the test find it
            os.write(ready_w, str(os.getpid()).encode())
            time.sleep(30)
            os._exit(0)
        os._exit(0)
    print("OK forked", int(os.read(ready_r, 16)))
except Exception as exc:
    print("BLOCKED", type(exc).__name__)
sys.stdout.flush()
