"""Which cases exercise each clause of a statement's contract (``clauses:`` in a spec).

A clause names its cases, or a predicate ``validate.py`` exports, true of an input that
exercises it, or both; ``grade verify`` says which clauses no case exercises, and ``--clauses``
lists them all. The predicates are the teacher's own code: run as the validator is, in a
subprocess of their own, never in the grader's process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from ..judging.errors import ExerciseError
from ..judging.records import Case
from ..model.material import TOOL_TIMEOUT_S, Material
from ..model.spec import Clause, Exercise

# reads {"predicates": [...], "inputs": [...]} on stdin, prints {predicate: [input index, ...]}
# or {"missing": [...]}; the validator's folder first on sys.path, as when it runs (it checks
# an input under `if __name__ == "__main__":`, so that importing it checks nothing)
_PROGRAM = """
import json, sys
request = json.load(sys.stdin)
sys.path.insert(0, sys.argv[1])
import validate
missing = [n for n in request["predicates"] if not callable(getattr(validate, n, None))]
if missing:
    json.dump({"missing": missing}, sys.stdout)
    sys.exit(0)
json.dump({n: [i for i, text in enumerate(request["inputs"]) if getattr(validate, n)(text)]
           for n in request["predicates"]}, sys.stdout)
"""


@dataclass(frozen=True)
class Exercised:
    clause: Clause
    cases: tuple[Case, ...]  # in case order, public and secret


def exercised(exercise: Exercise, teacher: Material, cases: Sequence[Case]) -> list[Exercised]:
    """Each clause with the cases that exercise it; ``ExerciseError`` for a clause that is
    not in the statement, names an unknown case or a predicate validate.py lacks."""
    statement = " ".join(exercise.statement.split())
    names = {c.name for c in cases}
    for clause in exercise.clauses:
        if clause.text not in statement:
            raise ExerciseError(exercise.spec_path, f"clause not in the statement: {clause.text!r}")
        unknown = [n for n in clause.cases if n not in names]
        if unknown:
            raise ExerciseError(exercise.spec_path, f"clause names no such case: {unknown[0]}")
    predicates = sorted({c.holds for c in exercise.clauses if c.holds is not None})
    holding = _run(teacher, predicates, cases) if predicates else {}
    return [
        Exercised(
            clause,
            tuple(
                case
                for i, case in enumerate(cases)
                if case.name in clause.cases
                or (clause.holds is not None and i in holding[clause.holds])
            ),
        )
        for clause in exercise.clauses
    ]


def listing(name: str, found: Sequence[Exercised]) -> str:
    """Each clause, then the cases that exercise it (public ones marked), or a warning."""
    if not found:
        return f"{name}: no clauses: declare them in the spec (clauses: [{{text: ..., ...}}])\n"
    lines = [f"{name} clauses:"]
    for item in found:
        shown = ", ".join(c.name + ("" if c.secret else " (public)") for c in item.cases)
        lines.append(f"  {item.clause.text}")
        lines.append(f"      {shown or 'warn: no case exercises it'}")
    return "\n".join(lines) + "\n"


def _run(teacher: Material, predicates: list[str], cases: Sequence[Case]) -> dict[str, set[int]]:
    request = {
        "predicates": predicates,
        "inputs": [c.input.decode("utf-8", "replace") for c in cases],
    }
    argv = [sys.executable, "-c", _PROGRAM, str(teacher.folder)]
    try:
        done = subprocess.run(
            argv, input=json.dumps(request).encode(), capture_output=True, timeout=TOOL_TIMEOUT_S
        )
    except subprocess.TimeoutExpired as exc:
        raise ExerciseError(teacher.validator, "its clause predicates did not finish") from exc
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        raise ExerciseError(teacher.validator, f"a clause predicate failed: {''.join(why)}")
    found = json.loads(done.stdout)
    if "missing" in found:
        raise ExerciseError(teacher.validator, f"exports no predicate {found['missing'][0]}")
    return {name: set(indexes) for name, indexes in found.items()}
