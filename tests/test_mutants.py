"""Mutation analysis: every operator makes a mutant, one-line diffs, and on a toy exercise the
cases' gap is found with a separating input while equivalent mutants are recognised."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from grader.cli import cli
from grader.teacher.mutants import mutants

EVERY_OPERATOR = '''\
"""A docstring is never mutated."""
import numpy as np
xs = [int(x) for x in input().split()]
total = 0
for i in range(1, len(xs)):
    total += xs[i] * 2
if total > 3:
    print(f"big {total / 3:.2f}")
print("sum", round(total / 7), np.round(total / 7), xs[1:-1])
'''


def test_every_operator_makes_a_mutant_of_one_line() -> None:
    found = mutants(EVERY_OPERATOR)
    assert {m.operator for m in found} == {
        "arithmetic",
        "comparison",
        "constant",
        "format",
        "string case",
        "rounding",
        "slice",
        "range",
        "dropped statement",
    }
    for mutant in found:
        diff = mutant.diff(EVERY_OPERATOR)
        changed = [
            line
            for line in diff.splitlines()
            if line[:1] in "+-" and line[:3] not in ("+++", "---")
        ]
        assert len(changed) == 2, diff  # one line out, one line in
        compile(mutant.source, "mutant", "exec")
        assert '"""A docstring is never mutated."""' in mutant.source


def _toy(tmp_path: Path) -> Path:
    """Exercise double: print 2n. Its only case is n = 0, which n - n passes too."""
    root = tmp_path / "course"
    (root / "exercises").mkdir(parents=True)
    (root / "exercises" / "double.yaml").write_text("title: Double\nstatement: Print 2n.\n")
    cases = root / "cases" / "double" / "public"
    cases.mkdir(parents=True)
    (cases / "01-zero.in").write_text("0\n")
    (cases / "01-zero.out").write_text("0\n")
    ref = root / "reference" / "double"
    ref.mkdir(parents=True)
    (ref / "solution.py").write_text("unused = 5\nn = int(input())\nprint(n + n)\n")
    (ref / "generate.py").write_text(
        "import random, sys\nprint(random.Random(int(sys.argv[1])).randint(-50, 50))\n"
    )
    (ref / "validate.py").write_text("import sys\nint(sys.stdin.read())\n")
    return root


@pytest.mark.slow
def test_a_gap_is_found_with_an_input_and_equivalents_are_told_apart(tmp_path: Path) -> None:
    root = _toy(tmp_path)
    result = CliRunner().invoke(cli, ["mutants", "double", "--root", str(root), "--inputs", "10"])
    assert result.exit_code == 1, result.output
    assert "-print(n + n)\n+print(n - n)\n" in result.stdout
    assert "survives every case; this input tells it from the reference:" in result.stdout
    # unused = 4, unused = 6 and dropping it change nothing: equivalent, not gaps
    assert "3 equivalent" in result.stdout
    assert "score" in result.stdout
    (root / "cases" / "double" / "public" / "02-seven.in").write_text("7\n")
    (root / "cases" / "double" / "public" / "02-seven.out").write_text("14\n")
    again = CliRunner().invoke(cli, ["mutants", "double", "--root", str(root), "--inputs", "10"])
    assert again.exit_code == 0, again.output
    assert "0 surviving: score 100.0%" in again.stdout


def _one_case(tmp_path: Path, solution: str, generator: str, case: tuple[str, str]) -> Path:
    """A course of exercise ``ex``: one public case, a validator that takes any bytes."""
    root = tmp_path / "course"
    (root / "exercises").mkdir(parents=True)
    (root / "exercises" / "ex.yaml").write_text("title: Ex\nstatement: As the reference.\n")
    cases = root / "cases" / "ex" / "public"
    cases.mkdir(parents=True)
    (cases / "01-one.in").write_text(case[0])
    (cases / "01-one.out").write_text(case[1])
    ref = root / "reference" / "ex"
    ref.mkdir(parents=True)
    (ref / "solution.py").write_text(solution)
    (ref / "generate.py").write_text(generator)
    (ref / "validate.py").write_text("import sys\nsys.stdin.buffer.read()\n")
    return root


def _gap(diff: str, shown: str) -> str:
    """How grade mutants prints a surviving mutant and the input that tells it apart."""
    return (
        f"--- solution.py\n+++ solution.py (mutant)\n@@ -2 +2 @@\n{diff}"
        f"  survives every case; this input tells it from the reference:\n{shown}"
        "  (add it: grade add-case ex NAME --input FILE)\n\n"
    )


@pytest.mark.parametrize("lines", [6, 7, 8])
def test_a_gaps_input_is_shown_in_its_first_six_lines(tmp_path: Path, lines: int) -> None:
    """The separating input is shown indented, at most six lines and a count of the rest,
    bytes that are not UTF-8 as U+FFFD, then the add-case command that keeps it."""
    root = _one_case(
        tmp_path,
        "import sys\nprint(len(sys.stdin.buffer.read().split()) * 2)\n",
        f'import sys\nsys.stdout.buffer.write(b"\\xff\\n" + b"a\\n" * {lines - 1})\n',
        ("\n", "0\n"),  # 0 words: any multiple of it passes
    )
    result = CliRunner().invoke(cli, ["mutants", "ex", "--root", str(root), "--inputs", "1"])
    assert result.exit_code == 1, result.output
    more = {6: "", 7: "    … (1 more line)\n", 8: "    … (2 more lines)\n"}[lines]
    shown = "    \ufffd\n" + "    a\n" * 5 + more
    assert (
        _gap(
            "-print(len(sys.stdin.buffer.read().split()) * 2)\n"
            "+print(len(sys.stdin.buffer.read().split()) * 3)\n",
            shown,
        )
        in result.stdout
    )


def test_a_gap_an_empty_input_tells_apart_is_shown_as_no_line(tmp_path: Path) -> None:
    """The empty input is a separating input like any other: nothing between the lines."""
    root = _one_case(
        tmp_path,
        "import sys\nprint(len(sys.stdin.buffer.read()) > 0)\n",
        "",  # generates the empty input
        ("x\n", "True\n"),
    )
    result = CliRunner().invoke(cli, ["mutants", "ex", "--root", str(root), "--inputs", "1"])
    assert result.exit_code == 1, result.output
    assert (
        _gap(
            "-print(len(sys.stdin.buffer.read()) > 0)\n+print(len(sys.stdin.buffer.read()) >= 0)\n",
            "\n",
        )
        in result.stdout
    )
