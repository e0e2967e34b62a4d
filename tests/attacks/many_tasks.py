# Red team: threads past the task limit (RLIMIT_NPROC does not bind a run that is root outside
# its namespace). Prints how many it could start.
import threading

stop = threading.Event()
started = 0
try:
    for _ in range(100):
        threading.Thread(target=stop.wait, daemon=True).start()
        started += 1
except RuntimeError:
    pass
stop.set()
print("tasks", started, flush=True)
