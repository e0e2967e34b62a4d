# Run from a path its student swapped for a link to a folder once the grader had checked it (a
# process of theirs on the grading machine): reads through its own path, as the Landlock rule
# would allow if it were built from that path rather than from the grader's copy.
import os
import sys

target = os.path.join(sys.argv[0], "answer.out")
try:
    with open(target) as f:
        print("OK read through its own path", f.read()[:20], flush=True)
except Exception as exc:
    print("BLOCKED read", type(exc).__name__, flush=True)
