"""The judging package is what the practice page runs: it must import nothing outside itself,
or ``grade site`` would ship a judge that fails in the browser."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from grader.judging.compare import Comparator, build
from grader.judging.errors import InternalError
from grader.judging.judge import RIGHT_ANYWAY, judge
from grader.judging.records import Case, Comparison, Verdict
from grader.judging.runs import Limits, RunResult

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


def _crashed(stdout: bytes = b"3\n") -> RunResult:
    return RunResult(exit_code=1, signal=None, wall_s=0.1, stdout=stdout, stderr=b"Boom: x\n")


CASE = Case("01", b"1 2\n", "3\n", "one")


def _broken_checker(expected: str, got: str) -> Comparison:
    raise InternalError("the checker check.py failed (exit code 7)")


@pytest.mark.parametrize(
    ("comparator", "stdout", "right"),
    [
        (build("tokens", {}), b"3\n", True),  # it printed the answer, then crashed
        (build("tokens", {}), b"4\n", False),
        (_broken_checker, b"3\n", False),  # the checker's own failure says nothing of it
    ],
)
def test_a_crash_says_whether_its_output_was_right(
    comparator: Comparator, stdout: bytes, right: bool
) -> None:
    outcome = judge(CASE, _crashed(stdout), comparator, Limits())
    assert outcome.verdict is Verdict.RUNTIME_ERROR
    assert outcome.message.startswith("exited with code 1: Boom: x")
    assert outcome.message.endswith(RIGHT_ANYWAY) is right
