"""What a teacher's checker program's run says of a student's output.

The contract (Kattis's output validators, simplified): ``python check.py input expected`` in
a fresh folder holding those two files, with the submission's output on stdin. Exit 0 accepts;
exit 1 rejects, the first line printed being the reason the student sees; anything else (a
crash, an uncaught exception included, or a time-out) is the checker's fault, a grader error,
never charged to the student. Running it is the caller's: the sandbox on the command line,
Pyodide in the browser.
"""

from __future__ import annotations

from .errors import InternalError
from .printed import decode, last_line
from .records import Comparison, Mismatch
from .runs import RunResult

ACCEPT, REJECT = 0, 1


def checker_verdict(run: RunResult, got: str, program: str) -> Comparison:
    """What the checker's run (on the output ``got``) says of it; InternalError where the
    checker itself failed."""
    said = decode(run.stdout).strip().split("\n", 1)[0][:300]
    # An uncaught exception exits 1 too: its traceback tells the checker's crash (the
    # grader's fault) from its verdict
    crashed = "Traceback (most recent call last)" in decode(run.stderr)
    if run.limit_hit is None and run.exit_code == ACCEPT:
        return Comparison(True)
    if run.limit_hit is None and run.exit_code == REJECT and not crashed:
        first = got.split("\n", 1)[0]
        return Comparison(False, Mismatch.CHECKER, line=1, got_line=first, note=said)
    why = run.limit_hit or f"exit code {run.exit_code}, signal {run.signal}"
    raise InternalError(f"the checker {program} failed ({why}): {last_line(decode(run.stderr))}")
