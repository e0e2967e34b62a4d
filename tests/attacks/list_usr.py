# Red team: a system Python's prefix is /usr; binding the prefix showed all of it.
import os

for folder in ("/usr/bin", "/usr/share", "/usr/local/bin"):
    try:
        print("OK", folder, sorted(os.listdir(folder)), flush=True)
    except OSError as exc:
        print("BLOCKED", folder, type(exc).__name__, flush=True)
