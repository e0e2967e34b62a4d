# Red team: change the host kernel's settings (sysctls) through the run's /proc, where its uid
# maps to the grader's root and no Landlock stands in the way. Opening for writing is enough
# to show it; nothing is written.
import os

for name in ("kernel/panic", "kernel/core_pattern", "vm/drop_caches"):
    path = "/proc/sys/" + name
    try:
        os.close(os.open(path, os.O_WRONLY))
        print("OK writable", path)
    except OSError as exc:
        print("BLOCKED", path, type(exc).__name__)
