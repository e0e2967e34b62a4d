"""Mutation analysis of an exercise's cases: small wrong versions of the reference, each of which
the cases should fail.

A mutant changes one place of the reference's AST (an operator, a constant, a comparison, a kind
of rounding, a slice bound, a range, a format's precision, a dropped statement, a string's case)
and is written back by replacing only that place's source text, so that its diff is one line.
The cases kill a mutant when it fails one of them. A survivor is then run, against the
reference, on random inputs from ``generate.py`` (smallest first): an input that separates them
is a gap in the cases, ready for ``grade add-case``; none found, and the mutant is taken as
equivalent (no input tells it from the reference).
"""

from __future__ import annotations

import ast
import difflib
import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from ..judging.records import Case
from ..model.material import Material, generate, validate
from ..running.grading import grade_many
from ..running.plan import Plan
from .expected import reference_output

SIZES = (1, 2, 3, 5, 8, 13, 21, 34, 55)  # generated inputs, smallest first: the first gap found
_SWAPS: dict[type[ast.operator], tuple[type[ast.operator], ...]] = {
    ast.Add: (ast.Sub,),
    ast.Sub: (ast.Add,),
    ast.Mult: (ast.Div,),
    ast.Div: (ast.Mult, ast.FloorDiv),
    ast.FloorDiv: (ast.Div,),
    ast.Mod: (ast.FloorDiv,),
}
_FLIPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
}
_PRECISION = re.compile(r"\.(\d+)")


@dataclass(frozen=True)
class Mutant:
    operator: str  # what kind of change: arithmetic, constant, comparison, rounding, ...
    line: int  # 1-based, in the reference
    source: str  # the whole mutated program

    def diff(self, original: str, name: str = "solution.py") -> str:
        return "".join(
            difflib.unified_diff(
                original.splitlines(keepends=True),
                self.source.splitlines(keepends=True),
                fromfile=name,
                tofile=f"{name} (mutant)",
                n=0,
            )
        )


class _Source:
    """Source text addressed the way the AST addresses it (lines, UTF-8 byte columns)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, line: int, byte_col: int) -> int:
        row = self.lines[line - 1] if line - 1 < len(self.lines) else ""
        return self.starts[line - 1] + len(row.encode()[:byte_col].decode(errors="ignore"))

    def replace(self, node: ast.AST, text: str) -> str:
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        end = self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
        return self.text[:start] + text + self.text[end:]


def _unparse(node: ast.AST) -> str:
    return ast.unparse(ast.fix_missing_locations(node))


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _changes(tree: ast.Module) -> Iterator[tuple[str, ast.AST, str]]:
    """(operator, node to replace, its replacement text) for every mutable place."""
    docstrings = _docstrings(tree)
    in_format = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None
        for part in ast.walk(node.format_spec)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp):
            for other in _SWAPS.get(type(node.op), ()):
                yield "arithmetic", node, _unparse(ast.BinOp(node.left, other(), node.right))
        elif isinstance(node, ast.Compare) and len(node.ops) == 1:
            flipped = _FLIPS.get(type(node.ops[0]))
            if flipped is not None:
                yield (
                    "comparison",
                    node,
                    _unparse(ast.Compare(node.left, [flipped()], node.comparators)),
                )
        elif isinstance(node, ast.Constant) and id(node) not in docstrings:
            value = node.value
            if isinstance(value, int) and not isinstance(value, bool):
                yield "constant", node, repr(value + 1)
                yield "constant", node, repr(value - 1)
            elif isinstance(value, str) and id(node) in in_format:
                for digits in _PRECISION.findall(value)[:1]:
                    for n in (int(digits) - 1, int(digits) + 1):
                        if n >= 0:
                            yield "format", node, repr(value.replace(f".{digits}", f".{n}", 1))
            elif isinstance(value, str) and any(c.isalpha() for c in value):
                changed = value.capitalize() if value != value.capitalize() else value.lower()
                if changed != value:
                    yield "string case", node, repr(changed)
        elif isinstance(node, ast.Call):
            yield from _call_changes(node)
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            for bound in (node.slice.lower, node.slice.upper):
                if bound is not None:
                    for sign in ("+", "-"):
                        yield "slice", bound, f"({_unparse(bound)}) {sign} 1"
    droppable = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign)
    for node in ast.walk(tree):
        for body in (getattr(node, "body", None), getattr(node, "orelse", None)):
            if not isinstance(body, list) or len(body) < 2:
                continue  # dropping a body's only statement leaves no program
            for statement in body:
                docstring = isinstance(statement, ast.Expr) and id(statement.value) in docstrings
                if isinstance(statement, droppable) and not docstring:
                    yield "dropped statement", statement, "pass"


def _call_changes(node: ast.Call) -> Iterator[tuple[str, ast.AST, str]]:
    func = node.func
    name = (
        func.id
        if isinstance(func, ast.Name)
        else func.attr
        if isinstance(func, ast.Attribute)
        else ""
    )
    if name == "round" and node.args:
        value = _unparse(node.args[0])
        yield "rounding", node, f"int({value})"
        yield "rounding", node, f"int(({value}) + 0.5)"
        if isinstance(func, ast.Attribute):  # np.round: numpy's other roundings
            owner = _unparse(func.value)
            yield "rounding", node, f"{owner}.floor(({value}) + 0.5)"
            yield "rounding", node, f"{owner}.trunc({value})"
    if name == "range":
        for i, bound in enumerate(node.args):
            for sign in ("+", "-"):
                texts = [_unparse(a) for a in node.args]
                texts[i] = f"({_unparse(bound)}) {sign} 1"
                yield "range", node, f"{_unparse(func)}({', '.join(texts)})"


def mutants(source: str) -> list[Mutant]:
    """Every distinct mutant of ``source`` that still compiles, in source order."""
    tree = ast.parse(source)
    text = _Source(source)
    seen = {source}
    found = []
    for operator, node, replacement in _changes(tree):
        mutated = text.replace(node, replacement)
        if mutated in seen:
            continue
        seen.add(mutated)
        try:
            compile(mutated, "<mutant>", "exec")
        except SyntaxError:
            continue
        found.append(Mutant(operator, node.lineno, mutated))  # type: ignore[attr-defined]
    return sorted(found, key=lambda m: m.line)


@dataclass(frozen=True)
class Survivor:
    mutant: Mutant
    separating: bytes | None  # the smallest generated input telling it from the reference


@dataclass(frozen=True)
class Analysis:
    total: int
    killed: int
    survivors: tuple[Survivor, ...]  # equivalent ones included (separating None)

    @property
    def equivalent(self) -> int:
        return sum(s.separating is None for s in self.survivors)

    @property
    def gaps(self) -> tuple[Survivor, ...]:
        return tuple(s for s in self.survivors if s.separating is not None)

    @property
    def score(self) -> float:
        """Killed over the mutants some input tells apart (1.0 when none does)."""
        live = self.total - self.equivalent
        return self.killed / live if live else 1.0


Progress = Callable[[int], None]  # how many scripts were graded, as they are


def _generated_cases(plan: Plan, material: Material, inputs: int) -> tuple[Case, ...]:
    """Up to ``inputs`` generated inputs the validator accepts, smallest sizes first, each with
    the reference's output."""
    cases = []
    if not material.generator.is_file():
        return ()
    for i in range(inputs):
        size = SIZES[i % len(SIZES)]
        data = generate(material, seed=1000 + i, size=size)
        if validate(material, data) is not None:
            continue
        expected = reference_output(plan.exercise, data, runner=plan.runner)
        cases.append(Case(name=f"generated-{i}", input=data, expected=expected, title=f"#{i}"))
    return tuple(sorted(cases, key=lambda c: len(c.input)))


def analyse(
    plan: Plan,
    material: Material,
    *,
    inputs: int = 40,
    progress: Progress | None = None,
) -> Analysis:
    """Grade every mutant of the reference on the plan's cases, then look for inputs that
    separate each survivor from the reference."""
    original = material.solution.read_text(encoding="utf-8")
    found = mutants(original)
    with tempfile.TemporaryDirectory(prefix="grade-mutants-") as tmp:
        paths = []
        for i, mutant in enumerate(found):
            path = Path(tmp) / f"mutant_{i:04d}.py"
            path.write_text(mutant.source, encoding="utf-8")
            paths.append(path)
        reports = grade_many(plan, paths, on_case=_counter(progress, len(plan.cases)))
        alive = [
            (mutant, path)
            for mutant, path, report in zip(found, paths, reports, strict=True)
            if all(o.passed for o in report.outcomes)
        ]
        survivors = []
        if alive:
            generated = _generated_cases(plan, material, inputs)
            again = replace(plan, cases=generated) if generated else None
            checked = grade_many(again, [p for _, p in alive]) if again else []
            for i, (mutant, _path) in enumerate(alive):
                outcomes = checked[i].outcomes if checked else ()
                failed = [o for o in outcomes if not o.passed]
                survivors.append(Survivor(mutant, failed[0].case.input if failed else None))
    return Analysis(len(found), len(found) - len(survivors), tuple(survivors))


def _counter(progress: Progress | None, per_script: int) -> Callable[[object], None] | None:
    if progress is None:
        return None
    done = 0

    def each(_outcome: object) -> None:
        nonlocal done
        done += 1
        if done % max(1, per_script) == 0:
            progress(done // max(1, per_script))

    return each
