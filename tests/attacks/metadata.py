# Finding 3: change the metadata of a file the grader's uid owns (Landlock does not cover it):
# a setuid bit, its times, an extended attribute, its owner. Input: JSON {"file": path}.
import json
import os
import stat
import sys
from collections.abc import Callable

path = json.load(sys.stdin)["file"]


def attempt(name: str, action: Callable[[], object]) -> None:
    try:
        action()
        print("OK", name, flush=True)
    except Exception as exc:
        print("BLOCKED", name, type(exc).__name__, flush=True)


attempt("chmod setuid", lambda: os.chmod(path, stat.S_ISUID | 0o755))
attempt("utime", lambda: os.utime(path, (0, 0)))
attempt("setxattr", lambda: os.setxattr(path, "user.grade", b"x"))
attempt("chown", lambda: os.chown(path, os.getuid(), os.getgid()))
