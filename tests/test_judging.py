"""The judging package is what the practice page runs: it must import nothing outside itself,
or ``grade site`` would ship a judge that fails in the browser."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

JUDGING = Path(__file__).resolve().parent.parent / "grader" / "judging"
_BROWSER_HAS = set(sys.stdlib_module_names)  # Pyodide ships CPython's standard library


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or ""))
        elif isinstance(node, ast.Import):
            found.extend((0, alias.name) for alias in node.names)
    return found


@pytest.mark.parametrize("module", sorted(JUDGING.glob("*.py")), ids=lambda p: p.name)
def test_judging_imports_only_itself_and_the_standard_library(module: Path) -> None:
    for level, name in _imports(module):
        if level == 0:
            assert name.split(".")[0] in _BROWSER_HAS, f"{module.name} imports {name}"
        else:
            assert level == 1, f"{module.name} reaches outside judging/ ({'.' * level}{name})"


def test_the_check_sees_an_import_from_outside(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from ..sandbox import Limits\nimport yaml\n")
    assert _imports(bad) == [(2, "sandbox"), (0, "yaml")]
