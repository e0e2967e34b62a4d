# The classic escape: double fork + setsid, so that killing the process group misses the grandchild.
import os
import sys
import time

try:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
        os._exit(0)
    print("OK forked")
except Exception as exc:
    print("BLOCKED", type(exc).__name__)
sys.stdout.flush()
