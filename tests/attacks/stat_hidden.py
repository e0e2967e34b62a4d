# Learns that a hidden file exists (and its size) without reading it: Landlock does not stop stat.
import json
import os
import sys

for path in json.load(sys.stdin)["files"]:
    try:
        print("OK", path, os.stat(path).st_size)
    except Exception as exc:
        print("BLOCKED", path, type(exc).__name__)
    try:
        print("OK listdir", os.path.dirname(path), len(os.listdir(os.path.dirname(path))))
    except Exception as exc:
        print("BLOCKED listdir", type(exc).__name__)
