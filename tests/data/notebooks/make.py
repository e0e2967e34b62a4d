"""Remake the notebooks beside this file as a student's Jupyter leaves them (not run by tests).

Needs nbformat, nbclient and ipykernel (``pip install nbformat nbclient ipykernel``; none is
grade's dependency): each notebook is run by a real IPython kernel, so its outputs, execution
counts and metadata are Jupyter's own, and written by nbformat, as Jupyter writes it. Then what
students do to a notebook that breaks nbgrader: a cell run and deleted (a gap in the execution
counts), one cell duplicated with its id, and one cell's metadata deleted.

    python tests/data/notebooks/make.py
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook
from nbformat.v4.rwbase import split_lines

HERE = Path(__file__).parent

SETUP = "%load_ext autoreload\n%autoreload 2\nimport sys"
TOTAL = (
    "!echo setting up\n"
    "def total(words):\n"
    '    """The sum of the words, as whole numbers.\n'
    '    !important: every word counts"""\n'
    "    return sum(int(w) for w in words)"
)
CRASHES = (
    "def total(words):\n"
    "    numbers = [int(w) for w in words]\n"
    "    if min(numbers, default=0) < 0:\n"
    '        raise ValueError("negative numbers are not mine to add")\n'
    "    return sum(numbers)"
)
MAIN = (
    "%%time\n"
    "words = sys.stdin.readline().split()\n"
    "if not words:\n"
    "    !echo no input\n"
    "print(total(words))"
)


def cells(total: str) -> list[nbformat.NotebookNode]:
    return [
        new_markdown_cell("# Adding whole numbers\n\nRead one line of numbers, print their sum."),
        new_code_cell(SETUP),
        new_code_cell("scratch = [1, 2, 3]  # tried, then deleted"),
        new_code_cell(total),
        new_markdown_cell("Now the input: *one line*."),
        new_code_cell(MAIN),
        new_code_cell("total?"),
    ]


def make(name: str, total: str) -> None:
    notebook = new_notebook(cells=cells(total))
    notebook.metadata["kernelspec"] = {
        "display_name": "Python 3",
        "language": "python",
        "name": "python3",
    }
    NotebookClient(notebook, timeout=60, kernel_name="python3", allow_errors=True).execute()
    del notebook.cells[2]  # run, then deleted: In [2] is gone from the counts
    notebook.cells.insert(3, copy.deepcopy(notebook.cells[2]))  # duplicated, id and all
    del notebook.cells[4]["metadata"]  # the markdown cell's
    del notebook.cells[5]["metadata"]  # and the main cell's
    # nbformat's own layout (sources and outputs as lists of lines), without its validation,
    # which refuses the two ids and the missing metadata (what nbgrader stops at)
    split_lines(notebook)
    text = json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    (HERE / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    make("add.ipynb", TOTAL)
    make("add_crashes.ipynb", CRASHES)
