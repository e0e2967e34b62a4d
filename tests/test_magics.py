"""A notebook read: which lines are IPython's, what a notebook's JSON must hold, and where a
line of its script came from. In-process tables (the end-to-end tests are test_notebooks.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import COURSE

from grader.cli import cli
from grader.running.magics import strip_cell
from grader.running.notebooks import NOTICE_MOST, CellMap, Span, notebook_script
from grader.running.submissions import read


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
    ('"""doc\n!not a shell line\n"""\n!ls', '"""doc\n!not a shell line\n"""\npass', ["!ls"]),
    ("s = '''doc\n!not shell'''\n!ls", "s = '''doc\n!not shell'''\npass", ["!ls"]),
    ('s = "a \\" ("\n!ls', 's = "a \\" ("\npass', ["!ls"]),  # an escaped quote ends nothing
    ('x = "a" + (\n    !2)', None, []),  # brackets after a string still open
    ('s = "a \\" (" + (\n    !x)', None, []),
    ('s = "a\\\\" + (\n    !x)', None, []),  # an escaped backslash: the quote after it ends
    ("s = 'abc\\\n!ls'", None, []),  # a backslash carries a one-line string on
    ("x = ((1,\n     2),\n     !3)", None, []),  # nested
    ("x = 1  # (\n!ls", "x = 1  # (\npass", ["!ls"]),  # a comment's brackets are none
    ("x = 1  # \\\n!ls", "x = 1  # \\\npass", ["!ls"]),  # nor its backslash
    ("x = 1 + \\\n  2  # c\n!ls", "x = 1 + \\\n  2  # c\npass", ["!ls"]),
    ("!pip install \\\n  numpy \\\n  scipy\n!ls", "pass\n\n\npass", ["!pip", "!ls"]),
    # named by the first word, at most NAME_MOST characters; any whitespace indents
    (
        f"\x0c!ls\n%{'m' * 39} x\n%{'m' * 40}",
        "\x0cpass\npass\npass",
        ["!ls", "%" + "m" * 39, f"%{'m' * 38}…"],
    ),
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


def test_a_one_line_string_left_open_ends_with_its_line() -> None:
    """The compiler says what is wrong with that line; the next is read afresh."""
    stripped = strip_cell(["s = 'abc", "!ls"])
    assert stripped.lines == ("s = 'abc", "pass") and stripped.removed == ("!ls",)


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


def test_what_jupyter_may_leave_in_a_code_cell_is_read_as_it_runs() -> None:
    """A byte order mark, no source at all, old Mac line ends."""
    text, cells = notebook_script(
        b"\xef\xbb\xbf" + notebook({"cell_type": "code"}, code("x = 1\rprint(x)"))
    )
    assert text == b"x = 1\nprint(x)\n" and cells.spans == (Span(1, 2, 2),)


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
    (f"{SHOWN}:9: SyntaxWarning: invalid", f"{SHOWN}:9: SyntaxWarning: invalid"),
    (f"ok\n{SHOWN}:4: SyntaxWarning: x", f"ok\n{SHOWN}, cell 5, line 1: SyntaxWarning: x"),
]


@pytest.mark.parametrize(("text", "shown"), RELABELLED)
def test_a_line_of_the_script_is_named_by_its_cell(text: str, shown: str) -> None:
    assert CELLS.relabel(text, SHOWN) == shown


@pytest.mark.parametrize(
    ("error", "shown"),
    [
        (
            f'  File "{SHOWN}", line 5\n    print(x)\n    ^\nIndentationError: expected an '
            "indented block after 'if' statement on line 4\n",
            f'  File "{SHOWN}", cell 5, line 2\n    print(x)\n    ^\nIndentationError: expected '
            "an indented block after 'if' statement in cell 5, line 1\n",
        ),
        (
            "SyntaxError: after 'if' statement on line 9\n",
            "SyntaxError: after 'if' statement on line 9\n",
        ),
        ("the compiler needed more than 512 MB\n", "the compiler needed more than 512 MB\n"),
    ],
)
def test_a_compile_errors_message_names_the_cell_too(error: str, shown: str) -> None:
    assert CELLS.relabel_compile_error(error, SHOWN) == shown
