"""The import contract: each folder of ``grader/`` imports only folders below it, so the folders
are the layers a newcomer reads (ARCHITECTURE.md). Imports under ``TYPE_CHECKING`` are types
only, never run, and may look up; everything else, function-level imports too, counts."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

GRADER = Path(__file__).resolve().parent.parent / "grader"

# A part of grader/ (a folder, or a module at its top) and its layer: a part imports only parts
# of a lower layer, or itself. "grader" is the package's own __init__ (its version, ROOT_ENV).
LAYERS: dict[str, int] = {
    "grader": 0,
    "judging": 1,
    "files": 2,
    "crash": 2,
    "sandbox": 2,
    "render": 2,
    "model": 3,
    "running": 4,
    "teacher": 5,
    "publish": 6,
    "commands": 7,
    "cli": 8,
    "__main__": 9,
}


def _module(path: Path) -> str:
    parts = path.relative_to(GRADER.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _part(module: str) -> str:
    """The layer part of a dotted module name under grader ("grader" for the package itself and
    for a name taken from it, like ``from grader import ROOT_ENV``)."""
    parts = module.split(".")
    if len(parts) == 1:
        return "grader"
    return parts[1] if parts[1] in LAYERS else "grader"


def _type_only(tree: ast.Module) -> set[int]:
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            ids.update(id(inner) for inner in ast.walk(node))
    return ids


def imports(path: Path, source: str | None = None) -> list[tuple[int, str]]:
    """Each grader module ``path``'s code imports at run time, with its line."""
    module = _module(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text() if source is None else source, str(path))
    skip = _type_only(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base) + (f".{node.module}" if node.module else "")
            else:
                target = node.module or ""
            names = [target] if node.module else [f"{target}.{a.name}" for a in node.names]
            found.extend((node.lineno, name) for name in names)
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
    return [(line, name) for line, name in found if name.split(".")[0] == "grader"]


def _upward(path: Path, source: str | None = None) -> list[str]:
    own = _part(_module(path))
    return [
        f"{path.relative_to(GRADER.parent)}:{line} ({own}) imports {name} ({_part(name)})"
        for line, name in imports(path, source)
        if _part(name) != own and LAYERS[_part(name)] >= LAYERS[own]
    ]


MODULES = sorted(p for p in GRADER.rglob("*.py") if "site_assets" not in p.parts)


def test_every_module_imports_only_layers_below_its_own() -> None:
    assert [p for p in MODULES if _part(_module(p)) not in LAYERS] == []
    assert [line for p in MODULES for line in _upward(p)] == []


@pytest.mark.parametrize(
    ("where", "source", "caught"),
    [
        ("model/spec.py", "from ..running.plan import prepare\n", True),
        ("model/spec.py", "def f():\n    from ..teacher import verify\n", True),  # at call time
        ("sandbox/portable.py", "from ..render.text import x\n", True),  # a peer is not below
        (
            "model/spec.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from ..running.plan import Plan\n",
            False,
        ),
        ("running/plan.py", "from ..model.spec import Exercise\nfrom . import grading\n", False),
        ("cli/base.py", "from .. import ROOT_ENV\nimport grader.publish.site\n", False),
        ("judging/judge.py", "from .. import __version__\n", False),
    ],
)
def test_the_contract_sees_an_upward_import(where: str, source: str, caught: bool) -> None:
    assert bool(_upward(GRADER / where, source)) == caught


def test_no_two_modules_share_a_name() -> None:
    """A name says which module: ``checker.py`` in two folders made a reader open both."""
    names = Counter(p.stem for p in MODULES if p.name != "__init__.py")
    assert [name for name, count in names.items() if count > 1] == []
