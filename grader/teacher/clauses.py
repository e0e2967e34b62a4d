"""Which cases exercise each clause of a statement's contract (``clauses:`` in a spec).

A clause names its cases, or a predicate ``validate.py`` exports, true of an input that
exercises it, or both; ``grade verify`` says which clauses no case exercises, and ``--clauses``
lists them all. It also runs the predicates over inputs from ``generate.py``: a clause no
generated input exercises is one ``--fuzz`` and ``grade mutants`` never try (issue 37: a top-k
generator writing logits to hundredths let a program keyed on hundredths pass every input).
The predicates are the teacher's own code: run as the validator is, in a
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
from ..model.material import TOOL_TIMEOUT_S, Material, generate_each
from ..model.spec import Clause, Exercise
from ..sandbox import cpus
from .checks import Check, Status

# reads {"predicates": [...], "inputs": [...]} on stdin, prints {"holds": {predicate: [input
# index, ...]}} or {"missing": [...]} (a predicate may be named "missing"); the validator's
# folder first on sys.path, as when it runs (it checks an input under `if __name__ ==
# "__main__":`, so that importing it checks nothing)
_PROGRAM = """
import json, sys
request = json.load(sys.stdin)
sys.path.insert(0, sys.argv[1])
import validate
missing = [n for n in request["predicates"] if not callable(getattr(validate, n, None))]
if missing:
    json.dump({"missing": missing}, sys.stdout)
    sys.exit(0)
holds = {n: [i for i, text in enumerate(request["inputs"]) if getattr(validate, n)(text)]
         for n in request["predicates"]}
json.dump({"holds": holds}, sys.stdout)
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
    texts = [c.input.decode("utf-8", "replace") for c in cases]
    holding = holds_of(teacher, predicates, texts) if predicates else {}
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
        shown = ", ".join(c.name + (" (public)" if c.shown_in_practice else "") for c in item.cases)
        lines.append(f"  {item.clause.text}")
        lines.append(f"      {shown or 'warn: no case exercises it'}")
    return "\n".join(lines) + "\n"


# the generated inputs verify tries: small sizes (a max-size clause is the cases' to reach)
GENERATED = tuple((seed, (1, 2, 3, 5, 10, 20, 50, 200)[seed % 8]) for seed in range(1, 25))


def never_generated(exercise: Exercise, teacher: Material) -> list[Clause]:
    """The clauses with a predicate that holds of none of the ``GENERATED`` inputs of
    ``generate.py`` (``ExerciseError`` when it fails); a clause without one is not checked."""
    predicates = sorted({c.holds for c in exercise.clauses if c.holds is not None})
    if not predicates:
        return []
    texts = [data.decode("utf-8", "replace") for data in generate_each(teacher, GENERATED)]
    holding = holds_of(teacher, predicates, texts)
    return [c for c in exercise.clauses if c.holds is not None and not holding[c.holds]]


def holds_of(teacher: Material, predicates: list[str], texts: Sequence[str]) -> dict[str, set[int]]:
    """The inputs each predicate holds of: the predicates shared among a process per CPU
    (each reads every input: a large one is what they take their time on)."""
    shares = min(len(predicates), cpus.usable_cpus())
    found: dict[str, set[int]] = {}
    missing: list[str] = []
    for lacks, part in cpus.at_once(
        lambda g: _run_one(teacher, g, texts), [predicates[i::shares] for i in range(shares)]
    ):
        missing += lacks
        found.update(part)
    if missing:
        raise ExerciseError(teacher.validator, f"exports no predicate {min(missing)}")
    return found


def _run_one(
    teacher: Material, predicates: list[str], texts: Sequence[str]
) -> tuple[list[str], dict[str, set[int]]]:
    request = {"predicates": predicates, "inputs": list(texts)}
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
        return [str(name) for name in found["missing"]], {}
    return [], {name: set(indexes) for name, indexes in found["holds"].items()}


def generated_check(exercise: Exercise, teacher: Material) -> list[Check]:
    """Every clause with a predicate holds of some input ``generate.py`` makes: fuzzing and
    ``grade mutants`` try only what it makes (a warning: the generator is the teacher's)."""
    if not teacher.generator.is_file() or not any(c.holds for c in exercise.clauses):
        return []
    try:
        bare = never_generated(exercise, teacher)
    except ExerciseError as exc:
        return [Check("generated inputs", Status.FAIL, str(exc))]
    checked = sum(1 for c in exercise.clauses if c.holds is not None)
    if bare:
        shown = "; ".join(repr(c.text) for c in bare[:3])
        return [
            Check(
                "generated inputs",
                Status.WARN,
                f"{len(bare)} of {checked} clauses with a predicate hold of none of "
                f"{len(GENERATED)} generated inputs: {shown}",
            )
        ]
    detail = f"every clause with a predicate ({checked}) holds of a generated input"
    return [Check("generated inputs", Status.OK, detail)]
