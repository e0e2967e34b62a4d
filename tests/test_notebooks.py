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

from conftest import COURSE, DATA, Golden

from grader.model.resources import Root

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


# --- end to end ---------------------------------------------------------------------------


def _cases(report: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(report)["cases"]
    for case in cases:  # what a run measures, which no two runs share
        for measured in ("time_s", "cpu_s", "peak_memory_mb", "memory_share"):
            case.pop(measured, None)
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


def _with_blob(path: Path, megabytes: int) -> Path:
    """The fixture notebook with an image of ``megabytes`` MB in a cell's output, written a
    piece at a time: a test process grown by it would be the floor of every fresh run's peak
    memory that this pytest worker measures afterwards (a forked child starts with its RSS)."""
    content = json.loads(ADD.read_text(encoding="utf-8"))
    content["cells"][2]["outputs"].append(
        {"output_type": "display_data", "data": {"image/png": "BLOB"}, "metadata": {}}
    )
    before, after = json.dumps(content).split("BLOB")
    piece = "iVBORw0KGgo" * 95325  # ~1 MB
    with path.open("w", encoding="utf-8") as f:
        f.write(before)
        for _ in range(megabytes):
            f.write(piece)
        f.write(after)
    return path


def test_a_notebooks_outputs_count_toward_the_size_limit_unread(
    tmp_path: Path, course_copy: Root
) -> None:
    """A 50 MB image in a cell's output: refused by its size, never read; under a course's
    larger limit, read once and left out of every report."""
    big = _with_blob(tmp_path / "big.ipynb", 50)
    refused = grade("add", str(big))
    assert refused.returncode == 2
    assert refused.stderr.strip() == (
        f"grade: error: submission {big} is larger than 1024 KiB (its stored outputs count: clear "
        "them, Edit > Clear Outputs of All Cells in Jupyter, and save)"
    )
    (course_copy.path / "grade.toml").write_text("max_submission_kb = 65536\n")
    graded = grade("--root", str(course_copy.path), "add", str(big), "--format", "json")
    assert graded.returncode == 0, graded.stderr
    assert json.loads(graded.stdout)["score"] == 1.0 and len(graded.stdout) < 10_000


def test_a_linked_notebook_is_refused_as_a_linked_script_is(tmp_path: Path) -> None:
    (tmp_path / "work.ipynb").symlink_to(ADD)
    result = grade("add", str(tmp_path / "work.ipynb"))
    assert result.returncode == 2
    assert "is a symbolic link; grade the file itself" in result.stderr


def test_grade_run_says_what_it_left_out() -> None:
    result = grade("run", "add", str(ADD), "--input", "-", stdin="4 5\n")
    assert result.returncode == 0, result.stderr
    assert LEFT_OUT in result.stderr.splitlines() and "9" in result.stdout
