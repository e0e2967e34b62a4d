"""Load an exercise's YAML spec, strictly, into an ``Exercise``.

Unknown keys, wrong types and duplicate keys are errors that name the file and the key: a typo in a
teacher's spec must never silently change how students are graded.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from ..judging.compare import Compare, build
from ..judging.errors import ExerciseError, UnknownExercise
from ..judging.records import Visibility
from ..judging.runs import Limits
from .config import did_you_mean
from .resources import Root

SPEC_SUFFIX = ".yaml"


@dataclass(frozen=True)
class CaseMeta:
    title: str | None = None
    points: float = 1.0
    hint: str | None = None
    visibility: Visibility | None = None  # None: what its folder says (public/ or secret/)
    sample: bool = False  # shown with the statement by `grade show`


SHRINK_UNITS = ("lines", "tokens", "columns")


@dataclass(frozen=True)
class ShrinkUnits:
    """What ``--fuzz`` may remove when it shrinks an input (``fuzz:`` in a spec), in order, again
    until none can go: ``lines``; ``tokens`` (of each line); ``columns``: the n-th token of every
    part of a line at once, the parts separated by ``parts`` (specdec: ``|``, so that a draft
    token goes with the target token at its position, and the round stays valid)."""

    units: tuple[str, ...] = ("lines", "tokens")
    parts: str = ""  # what separates a line's parts, for columns


@dataclass(frozen=True)
class Clause:
    """A sentence of the statement's input/output contract (``clauses:`` in a spec) and what
    tells the cases that exercise it: ``cases`` by name, and any whose input ``holds``, a
    predicate ``validate.py`` exports (``def NAME(text: str) -> bool``). ``grade verify
    --clauses`` lists them; a clause no case exercises is a warning."""

    text: str  # as the statement says it, its whitespace collapsed
    cases: tuple[str, ...] = ()
    holds: str | None = None


@dataclass(frozen=True)
class Exercise:
    name: str
    title: str
    statement: str
    limits: Limits
    compare: Compare  # its method, options, and what compares
    case_meta: Mapping[str, CaseMeta]
    spec_path: Path
    root: Root  # where it was found: its cases and teacher material live there too
    preload: tuple[str, ...] = ()  # modules the fork server imports once for every run
    shrink: ShrinkUnits = ShrinkUnits()  # what --fuzz may remove when shrinking
    clauses: tuple[Clause, ...] = ()  # the contract's sentences, for verify --clauses

    @property
    def cases_dir(self) -> Path:
        """``cases/NAME/``: the exercise's own case folders (``cases.py`` knows their layout)."""
        return self.root.cases / self.name


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses duplicate keys instead of keeping the last one."""


# libyaml's parser where PyYAML was built with it: ~10x faster, and an exercise's spec is read
# before the fork servers can start. Its errors are worded otherwise: a text it refuses is read
# again by the pure one, whose message (and line, column) a teacher then sees either way.
class _FastStrictLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """CSafeLoader that refuses duplicate keys, as ``_StrictLoader`` does."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        seen.add(key)
    return loader.construct_mapping(node)


for _loader in (_StrictLoader, _FastStrictLoader):
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read_yaml(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ExerciseError(path, f"cannot read: {exc}") from exc
    return parse_yaml(path, text)


def parse_yaml(path: Path, text: str) -> Any:
    """``text`` as YAML, strictly; errors name ``path``."""
    try:
        return yaml.load(text, Loader=_FastStrictLoader)  # safe loaders: no arbitrary objects
    except yaml.YAMLError:
        pass
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except yaml.MarkedYAMLError as exc:
        # as compilers say it (file:line:column: problem), so editors jump to the place
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        if exc.context and exc.problem:
            problem = f"{problem} ({exc.context})"
        if mark is None:
            raise ExerciseError(path, problem) from exc
        raise ExerciseError(path, problem, line=mark.line + 1, column=mark.column + 1) from exc
    except yaml.YAMLError as exc:
        raise ExerciseError(path, f"invalid YAML: {' '.join(str(exc).split())}") from exc


class _Fields:
    """Typed access to one YAML mapping that reports problems as ``file: key.path: problem``."""

    def __init__(self, path: Path, where: str, data: object, allowed: tuple[str, ...]) -> None:
        self.path, self.where = path, where
        if not isinstance(data, dict):
            self.fail(where or "top level", f"must be a mapping, got {type(data).__name__}")
        self.data: dict[str, Any] = data  # type: ignore[assignment]
        for key in self.data:
            if key not in allowed:
                hint = did_you_mean(str(key), allowed)
                self.fail(self.key(str(key)), f"unknown key; {hint}(allowed: {', '.join(allowed)})")

    def key(self, name: str) -> str:
        return f"{self.where}.{name}" if self.where else name

    def fail(self, key: str, problem: str) -> None:
        raise ExerciseError(self.path, f"{key}: {problem}")

    def get(self, name: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
        if name not in self.data:
            if default is _REQUIRED:
                self.fail(self.key(name), "missing")
            return default
        value = self.data[name]
        if isinstance(value, bool) and kind in (int, float, (int, float)):
            self.fail(self.key(name), f"must be a number, got {value!r}")
        if not isinstance(value, kind):
            expected = kind.__name__ if isinstance(kind, type) else "number"
            self.fail(self.key(name), f"must be {expected}, got {value!r}")
        return value

    def positive(self, name: str, default: float) -> float:
        value = self.get(name, (int, float), default)
        if value <= 0:
            self.fail(self.key(name), f"must be > 0, got {value!r}")
        return float(value)


_REQUIRED = object()


def _limits(path: Path, data: object) -> Limits:
    f = _Fields(path, "limits", data, ("time_s", "memory_mb", "output_kb", "disk_mb", "files"))
    d = Limits()
    return Limits(
        time_s=f.positive("time_s", d.time_s),
        memory_mb=int(f.positive("memory_mb", d.memory_mb)),
        output_kb=int(f.positive("output_kb", d.output_kb)),
        disk_mb=int(f.positive("disk_mb", d.disk_mb)),
        files=int(f.positive("files", d.files)),
    )


def _case_meta(path: Path, name: str, data: object) -> CaseMeta:
    f = _Fields(path, f"cases.{name}", data, ("title", "points", "hint", "visibility", "sample"))
    visibility = f.get("visibility", str, None)
    if visibility is not None and visibility not in {v.value for v in Visibility}:
        f.fail(f.key("visibility"), f"must be one of {', '.join(Visibility)}, got {visibility!r}")
    points = f.get("points", (int, float), 1.0)
    if points < 0:
        f.fail(f.key("points"), f"must be >= 0, got {points!r}")
    return CaseMeta(
        title=f.get("title", str),
        points=float(points),
        hint=f.get("hint", str),
        visibility=None if visibility is None else Visibility(visibility),
        sample=f.get("sample", bool, False),
    )


def parse_case_meta(path: Path, data: object) -> Mapping[str, CaseMeta]:
    if data is None:
        return MappingProxyType({})
    if not isinstance(data, dict):
        raise ExerciseError(path, "cases: must be a mapping of case name to metadata")
    return MappingProxyType({str(k): _case_meta(path, str(k), v) for k, v in data.items()})


def exercise_names(root: Root) -> tuple[str, ...]:
    if not root.exercises.is_dir():
        return ()
    return tuple(sorted(p.stem for p in root.exercises.glob(f"*{SPEC_SUFFIX}")))


def load_exercise(name: str, root: Root) -> Exercise:
    path = root.exercises / f"{name}{SPEC_SUFFIX}"
    if "/" in name or name.startswith(".") or not path.is_file():
        raise UnknownExercise(name, exercise_names(root))
    f = _Fields(
        path,
        "",
        read_yaml(path),
        ("title", "statement", "limits", "compare", "cases", "preload", "fuzz", "clauses"),
    )
    shrink = _shrink_units(_Fields(path, "fuzz", f.get("fuzz", dict, {}), ("units", "parts")))
    preload = f.get("preload", list, [])
    for module in preload:
        if not isinstance(module, str) or not re.fullmatch(r"[A-Za-z_][\w.]*", module):
            f.fail("preload", f"must be a list of module names, got {module!r}")
    compare = _Fields(path, "compare", f.get("compare", dict, {}), ("method", "options"))
    try:
        compares = build(compare.get("method", str, "tokens"), compare.get("options", dict, {}))
    except ValueError as exc:
        raise ExerciseError(path, f"compare.{exc}") from exc
    if compares.checker is not None and not (root.path / compares.checker).is_file():
        raise ExerciseError(path, f"compare.options.program: no file {compares.checker}")
    return Exercise(
        name=name,
        title=f.get("title", str, _REQUIRED),
        statement=f.get("statement", str, _REQUIRED),
        limits=_limits(path, f.get("limits", dict, {})),
        compare=compares,
        # `cases:` with nothing under it (a teacher's edit) is no metadata, as no key is
        case_meta=parse_case_meta(path, f.get("cases", object, None)),
        spec_path=path,
        root=root,
        preload=tuple(preload),
        shrink=shrink,
        clauses=tuple(_clause(path, i, c) for i, c in enumerate(f.get("clauses", list, []), 1)),
    )


def _clause(path: Path, number: int, data: object) -> Clause:
    c = _Fields(path, f"clauses[{number}]", data, ("text", "cases", "holds"))
    cases = c.get("cases", list, [])
    if not all(isinstance(name, str) for name in cases):
        c.fail(c.key("cases"), f"must be a list of case names, got {cases!r}")
    holds = c.get("holds", str, None)
    if holds is not None and not holds.isidentifier():
        c.fail(c.key("holds"), f"must name a function of validate.py, got {holds!r}")
    return Clause(" ".join(c.get("text", str, _REQUIRED).split()), tuple(cases), holds)


def _shrink_units(fuzz: _Fields) -> ShrinkUnits:
    units = fuzz.get("units", list, ["lines", "tokens"])
    if not units or any(u not in SHRINK_UNITS for u in units) or len(set(units)) < len(units):
        known = ", ".join(SHRINK_UNITS)
        fuzz.fail("fuzz.units", f"must list some of {known}, each once, got {units!r}")
    parts = fuzz.get("parts", str, "")
    if ("columns" in units) != bool(parts):
        fuzz.fail("fuzz.parts", "columns needs parts (what separates a line's parts), and only it")
    return ShrinkUnits(tuple(units), parts)
