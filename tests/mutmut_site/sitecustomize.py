"""Started by every Python that a mutation run's tests start (tests/conftest.py puts this
folder on their PYTHONPATH, beside mutmut's mutated copy of the grader).

mutmut learns which tests reach a function from its stats pass, in the test's own process: a
function that only a ``python -m grader`` reached (main, the crash file, the signals) had no
test, and its mutants were never run. In that pass the child writes each function it reaches
to the file the suite names; the suite hands them to mutmut after the test.
"""

from __future__ import annotations

import importlib
import os


def _record_hits_in(path: str) -> None:
    trampoline = importlib.import_module("mutmut.mutation.trampoline")

    def record(name: str, caller: str | None = None) -> None:
        with open(path, "a", encoding="utf-8") as hits:  # one short line: appends do not mix
            hits.write(name + "\n")

    # the trampoline calls it by its module's global name, at each call
    trampoline.__dict__["record_trampoline_hit"] = record


if "GRADE_MUTMUT_HITS" in os.environ and os.environ.get("MUTANT_UNDER_TEST") == "stats":
    _record_hits_in(os.environ["GRADE_MUTMUT_HITS"])
