"""Notebooks: a .ipynb's code cells graded as one script, its errors named by cell and line.

The fixtures under tests/data/notebooks/ were run by a real IPython kernel and written as
Jupyter writes them (make.py beside them), then changed as students change them: a cell run
and deleted, a cell duplicated with its id, the metadata of two cells deleted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import COURSE, DATA, Golden

from grader.cli import cli
from grader.running.magics import strip_cell
from grader.running.notebooks import NOTICE_MOST, CellMap, Span, notebook_script
from grader.running.submissions import read

NOTEBOOKS = DATA / "notebooks"
ADD = NOTEBOOKS / "add.ipynb"  # right, with magics, shell lines, help and a %%time cell
CRASHES = NOTEBOOKS / "add_crashes.ipynb"  # raises on negative numbers, in a cell's function
SAME_AS_PY = NOTEBOOKS / "add.py"  # add.ipynb's code as a .py, IPython's lines left out
LEFT_OUT = (
    "grade: IPython lines left out (not Python): %load_ext (cell 2); %autoreload (cell 2); "
    "!echo (cells 3, 4, 6); %%time (cell 6); total? (cell 7)"
)


def grade(*args: str, cwd: Path | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``grade`` as a student runs it: a process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "grader", "--root", str(COURSE), *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1"},
        check=False,
    )


def notebook(*cells: object, **top: Any) -> bytes:
    return json.dumps({"cells": list(cells), "nbformat": 4, "nbformat_minor": 5, **top}).encode()


def code(source: object, **more: Any) -> dict[str, Any]:
    return {"cell_type": "code", "source": source, **more}


# --- which lines are IPython's ------------------------------------------------------------

MAGICS = [
    # (a cell's source, what is graded of it, what is named as left out)
    ("%matplotlib inline\nimport sys", "pass\nimport sys", ["%matplotlib"]),
    (
        "for i in range(2):\n    !echo hi\nprint(1)",
        "for i in range(2):\n    pass\nprint(1)",
        ["!echo"],
    ),
    ("files = !ls\na, b = %sx cmd", "pass\npass", ["!ls", "%sx"]),
    ("np.mean?\n??len\nobj??", "pass\npass\npass", ["np.mean?", "??len", "obj??"]),
    ("!pip install \\\n    numpy\nimport os", "pass\n\nimport os", ["!pip"]),
    ("%%bash\necho hi\n  ls", "\n\n", ["%%bash"]),
    ("%%time\nx = 1\n!ls", "pass\nx = 1\npass", ["%%time", "!ls"]),
    # Python that looks like IPython is Python: strings, brackets, continuations, operators
    ('s = """\n!not a shell line\n%nor a magic\n"""', None, []),
    ("x = (1,\n     !2)", None, []),
    ("x = 1 + \\\n!2", None, []),
    ("x = 5 % 3\nx %= 2\ny = x != 2\nprint(x)  # !not\n# %nor", None, []),
    ("s = 'it''s'  # a quote 'opened\n!ls", "s = 'it''s'  # a quote 'opened\npass", ["!ls"]),
    ('s = "a \\" !b"\n%who', 's = "a \\" !b"\npass', ["%who"]),
    ("f'{x!r}'\n!ls", "f'{x!r}'\npass", ["!ls"]),
    # a cell pasted from inside a block runs in IPython: its first line's indentation goes
    ("\n    x = 1\n    if x:\n        !ls", "\nx = 1\nif x:\n    pass", ["!ls"]),
    ("  x = 1\n y = 2", "x = 1\n y = 2", []),  # as IPython leaves it: an IndentationError
]


@pytest.mark.parametrize(("source", "graded", "removed"), MAGICS)
def test_ipython_lines_are_left_out_where_a_statement_starts(
    source: str, graded: str | None, removed: list[str]
) -> None:
    stripped = strip_cell(source.split("\n"))
    assert "\n".join(stripped.lines) == (source if graded is None else graded)
    assert list(stripped.removed) == removed
    if graded is not None and removed:  # what was left is Python still
        compile("\n".join(stripped.lines), "cell", "exec")


# --- reading a notebook -------------------------------------------------------------------


def test_only_code_cells_sources_count_whatever_else_a_cell_holds() -> None:
    """Outputs, metadata, ids and counts play no part: a cell without metadata, two cells with
    one id (what nbformat's validation refuses, and nbgrader with it) grade as their code."""
    text, cells = notebook_script(
        notebook(
            {"cell_type": "markdown", "source": ["# Title\n", "print('not code')"]},
            code(["import sys\n", "x = 1\n"], id="a", metadata={"tags": []}, outputs=[]),
            {"cell_type": "raw", "source": "raw"},
            code("print(x)\r\n", id="a", outputs=[{"output_type": "stream", "text": "1\n"}]),
            code(""),
            code("y = 2\nprint(y)", execution_count=9),
        )
    )
    assert text == b"import sys\nx = 1\nprint(x)\ny = 2\nprint(y)\n"
    assert cells.spans == (Span(1, 2, 2), Span(3, 1, 4), Span(4, 2, 6))
    assert [cells.where(n) for n in range(1, 7)] == [
        (2, 1), (2, 2), (4, 1), (6, 1), (6, 2), None,
    ]  # fmt: skip


def test_nbformat_3_worksheets_are_read_too() -> None:
    v3 = {
        "nbformat": 3,
        "worksheets": [
            {"cells": [{"cell_type": "heading", "source": "T", "level": 1}]},
            {
                "cells": [
                    {"cell_type": "code", "input": ["%pylab\n", "print(1)"], "language": "python"}
                ]
            },
        ],
    }
    text, cells = notebook_script(json.dumps(v3).encode())
    assert text == b"pass\nprint(1)\n"
    assert cells.where(2) == (2, 2)
    assert cells.notice() == "IPython lines left out (not Python): %pylab (cell 2)"


def test_the_notice_names_each_removal_once_with_its_cells_in_one_line() -> None:
    _, cells = notebook_script(
        notebook(
            code("%%bash\nls"),
            code("!ls\n!ls\n%%bash"),
            code("%%bash\necho"),
            code("print(1)"),
            *[code(f"%magic{n}") for n in range(500)],
        )
    )
    notice = cells.notice()
    assert notice is not None and "\n" not in notice and len(notice) <= NOTICE_MOST
    assert notice.startswith(
        "IPython lines left out (not Python): %%bash (cells 1, 3, the whole cells); "
        "!ls (cell 2); %%bash (cell 2); %magic0 (cell 5); %magic1 (cell 6); "
    )
    assert notice.endswith("…")
    assert notebook_script(notebook(code("print(1)")))[1].notice() is None


NOT_NOTEBOOKS = [
    (b"{", "is not a notebook: not valid JSON (Expecting property name"),
    (b"[]", "is not a notebook: its JSON is not an object with cells"),
    (b'{"nbformat": 4}', "is not a notebook: its JSON has no list of cells"),
    (b'{"worksheets": [1]}', "is not a notebook: a worksheet holds no list of cells"),
    (notebook(3), "is not a notebook: cell 1 is not an object"),
    (notebook(code(42)), "is not a notebook Jupyter opens: cell 1's source is not text"),
    (notebook({}, code(["a", 3])), "is not a notebook Jupyter opens: cell 2's source is not"),
    (notebook(code({"x": "print(1)"})), "is not a notebook Jupyter opens: cell 1's source"),
    (notebook(code("print(1)\0")), "holds a NUL character in cell 1: not Python"),
    (notebook(code("'\ud800'")), "holds text that is not UTF-8 in cell 1"),
    (b"[" * 200_000 + b"]" * 200_000, "is not a notebook: its JSON is nested too deeply"),
    (b'{"cells": [' * 50_000, "is not a notebook: its JSON is nested too deeply"),
    (b'{"cells": [], "a": "\xff"}', "is not UTF-8 text"),
    (b"\xff\xfe{\x00}\x00", "is a binary file, not a notebook"),
    (b'{"cells": [], "n": 1' + b"1" * 5000 + b"}", "is not a notebook: not valid JSON"),
]


@pytest.mark.parametrize(("data", "problem"), NOT_NOTEBOOKS)
def test_a_file_that_is_no_notebook_is_refused_as_the_students(
    data: bytes, problem: str, tmp_path: Path
) -> None:
    path = tmp_path / "work.ipynb"
    path.write_bytes(data)
    found = read(path)
    assert found.problem is not None and found.problem.startswith(problem), found.problem
    # through the CLI: the student's error, one line, exit 2 as for any unreadable file
    result = CliRunner().invoke(cli, ["--root", str(COURSE), "add", str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == f"grade: error: submission {path} {found.problem}"


# --- where a line came from ---------------------------------------------------------------

CELLS = CellMap((Span(1, 3, 2), Span(4, 2, 5)))
SHOWN = "/home/ana/work.ipynb"
RELABELLED = [
    (f'  File "{SHOWN}", line 5, in <module>', f'  File "{SHOWN}", cell 5, line 2, in <module>'),
    (f'  File "{SHOWN}", line 1, in f', f'  File "{SHOWN}", cell 2, line 1, in f'),
    (f'  File "{SHOWN}", line 9, in f', f'  File "{SHOWN}", line 9, in f'),  # no cell's
    ('  File "/home/ana/helper.py", line 2', '  File "/home/ana/helper.py", line 2'),
    (f'  File "{SHOWN}x", line 2', f'  File "{SHOWN}x", line 2'),
    (f"{SHOWN}:4: SyntaxWarning: invalid", f"{SHOWN}, cell 5, line 1: SyntaxWarning: invalid"),
    ("print said line 4", "print said line 4"),
]


@pytest.mark.parametrize(("text", "shown"), RELABELLED)
def test_a_line_of_the_script_is_named_by_its_cell(text: str, shown: str) -> None:
    assert CELLS.relabel(text, SHOWN) == shown


# --- end to end ---------------------------------------------------------------------------


def _cases(report: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(report)["cases"]
    for case in cases:
        del case["time_s"]
        case.pop("cpu_s", None)
    return cases


def test_a_jupyter_notebook_grades_like_the_same_code_as_a_py() -> None:
    """The issue's notebook: outputs, magics, markdown, a cell deleted, one duplicated with its
    id, two cells' metadata deleted."""
    notebook = grade("add", str(ADD), "--format", "json")
    script = grade("add", str(SAME_AS_PY), "--format", "json")
    assert notebook.returncode == script.returncode == 0, notebook.stderr
    assert _cases(notebook.stdout) == _cases(script.stdout)
    assert json.loads(notebook.stdout)["score"] == 1.0
    assert notebook.stderr.splitlines() == [LEFT_OUT]
    assert "setting up" not in notebook.stdout  # the outputs stored in it are not graded


def test_a_traceback_names_the_cell_and_its_line() -> None:
    result = grade("add", str(CRASHES), "-v")
    assert result.returncode == 1
    frames = [line.strip() for line in result.stdout.splitlines() if 'File "' in line]
    assert frames == [
        f'File "{CRASHES}", cell 6, line 5, in <module>',
        f'File "{CRASHES}", cell 4, line 4, in total',
    ]
    report = json.loads(grade("add", str(CRASHES), "--format", "json").stdout)
    assert report["cases"][1]["message"] == (
        "exited with code 1: ValueError: negative numbers are not mine to add"
    )


def _with_cell(tmp_path: Path, index: int, source: str) -> Path:
    """The fixture notebook with one cell's source changed, as the student saved it."""
    content = json.loads(ADD.read_text(encoding="utf-8"))
    content["cells"][index]["source"] = source.splitlines(keepends=True)
    path = tmp_path / "work.ipynb"
    path.write_text(json.dumps(content, indent=1), encoding="utf-8")
    return path


def test_a_syntax_error_names_the_cell_and_its_line(tmp_path: Path, golden: Golden) -> None:
    broken = _with_cell(tmp_path, 5, "%%time\nwords = sys.stdin.readline().split()\ndef f(:\n")
    result = grade("add", str(broken), cwd=tmp_path)
    assert result.returncode == 1
    golden("notebook_compile_error.txt", result.stdout.replace(str(broken), "work.ipynb"))
    report = json.loads(grade("add", str(broken), "--format", "json").stdout)
    assert report["cases"][0]["message"] == "does not compile: cell 6, line 3: invalid syntax"


def test_the_compilers_own_line_number_is_the_cells_too(tmp_path: Path) -> None:
    broken = _with_cell(tmp_path, 5, "words = 1\nif words:\nprint(words)\n")
    report = json.loads(grade("add", str(broken), "--format", "json").stdout)
    assert report["cases"][0]["message"] == (
        "does not compile: cell 6, line 3: IndentationError: expected an indented block after "
        "'if' statement "
        "in cell 6, line 2"
    )


def test_a_class_of_notebooks(tmp_path: Path) -> None:
    """grade batch: a folder per student holding one notebook (beside notes and Jupyter's
    checkpoints), a notebook file in the class folder, a broken one, a linked one."""
    room = tmp_path / "class"
    for name, source in (("alice", ADD), ("erin", CRASHES)):
        (room / name / ".ipynb_checkpoints").mkdir(parents=True)
        (room / name / "work.ipynb").write_bytes(source.read_bytes())
        (room / name / ".ipynb_checkpoints" / "work-checkpoint.ipynb").write_text("{")
        (room / name / "notes.md").write_text("# notes\n")
    (room / "bob.ipynb").write_bytes(CRASHES.read_bytes())
    (room / "carol").mkdir()
    (room / "carol" / "work.ipynb").write_text('{"cells": [')
    (room / "dave").mkdir()
    (room / "dave" / "work.ipynb").symlink_to(ADD)
    book = tmp_path / "book.json"
    result = grade("batch", "add", str(room), "--json", str(book))
    assert result.returncode == 0, result.stderr  # a low mark is not the batch's failure
    rows = {e["submission"]: e for e in json.loads(book.read_text())["submissions"]}
    assert {name: row["score"] for name, row in rows.items()} == {
        "alice": 1.0, "bob": 0.8, "carol": 0.0, "dave": 0.0, "erin": 0.8,
    }  # fmt: skip
    assert rows["carol"]["error"].startswith("is not a notebook: not valid JSON")
    assert rows["dave"]["error"] == "is a symbolic link; grade the file itself"
    said = [line for line in result.stderr.splitlines() if "IPython lines" in line]
    assert said == [LEFT_OUT.replace("grade: ", "grade: alice: ")] + [
        f"grade: {name}: IPython lines left out (not Python): %load_ext (cell 2); "
        "%autoreload (cell 2); %%time (cell 6); !echo (cell 6); total? (cell 7)"
        for name in ("bob", "erin")
    ]


def test_a_notebooks_outputs_count_toward_the_size_limit_unread(tmp_path: Path) -> None:
    """A 50 MB image in a cell's output: refused by its size, never read; under a course's
    larger limit, read once and left out of every report."""
    content = json.loads(ADD.read_text(encoding="utf-8"))
    blob = "iVBORw0KGgo" * (50 * 1024 * 1024 // 11)
    content["cells"][2]["outputs"].append(
        {"output_type": "display_data", "data": {"image/png": blob}, "metadata": {}}
    )
    big = tmp_path / "big.ipynb"
    big.write_text(json.dumps(content), encoding="utf-8")
    refused = grade("add", str(big))
    assert refused.returncode == 2
    assert refused.stderr.strip() == (
        f"grade: error: submission {big} is larger than 1024 KiB (its stored outputs count: clear "
        "them, Edit > Clear Outputs of All Cells in Jupyter, and save)"
    )
    found = read(big, limit=64 << 20)
    assert found.problem is None and found.text == read(ADD).text


def test_a_linked_notebook_is_refused_as_a_linked_script_is(tmp_path: Path) -> None:
    (tmp_path / "work.ipynb").symlink_to(ADD)
    result = grade("add", str(tmp_path / "work.ipynb"))
    assert result.returncode == 2
    assert "is a symbolic link; grade the file itself" in result.stderr


def test_grade_run_says_what_it_left_out() -> None:
    result = grade("run", "add", str(ADD), "--input", "-", stdin="4 5\n")
    assert result.returncode == 0, result.stderr
    assert LEFT_OUT in result.stderr.splitlines() and "9" in result.stdout
