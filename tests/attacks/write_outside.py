# Writes outside its working directory: /tmp, /dev/shm, the venv (a .pth there runs in every later
# Python start), the submission's own folder. Input: JSON {"dirs": [...], "name": "..."}.
import json
import os
import sys

args = json.load(sys.stdin)
for folder in args["dirs"]:
    target = os.path.join(folder, args["name"])
    try:
        with open(target, "w") as f:
            f.write("import os; os.system('echo pwned')\n")
        print("OK", target)
    except Exception as exc:
        print("BLOCKED", target, type(exc).__name__)
try:
    with open("inside.txt", "w") as f:  # its own working directory stays writable
        f.write("fine")
    print("WORKDIR writable")
except Exception as exc:
    print("WORKDIR blocked", type(exc).__name__)
