# Red team: leave the run's control group (its pids.max) by writing itself into another one,
# then start more threads than a run may have.
import os
import threading

for target in (
    "/sys/fs/cgroup/pids/cgroup.procs",
    "/sys/fs/cgroup/cgroup.procs",
    "/sys/fs/cgroup/pids/../pids/cgroup.procs",
):
    try:
        with open(target, "w") as f:
            f.write(str(os.getpid()))
        print("OK moved", target)
    except OSError as exc:
        print("BLOCKED", target, type(exc).__name__)
stop = threading.Event()
started = 0
try:
    for _ in range(150):
        threading.Thread(target=stop.wait, daemon=True).start()
        started += 1
except RuntimeError:
    pass
stop.set()
print("tasks", started)
