"""grade.toml's keys, declared once (``model/config.py``): each value a teacher may write, and
what the course then sets or what the error says."""

from __future__ import annotations

import re
from pathlib import Path
from types import MappingProxyType

import pytest

from grader.judging.errors import ExerciseError
from grader.model.config import Config, example_file, load_config

DOCS = Path(__file__).resolve().parent.parent / "docs" / "teachers.md"


@pytest.mark.parametrize(
    ("written", "field", "value"),
    [
        ("", "timeout", None),
        ("timeout = 2", "timeout", 2.0),
        ("timeout = 0.5", "timeout", 0.5),
        ("jobs = 3", "jobs", 3),
        ("sandbox = 'strict'", "sandbox", "strict"),
        ("name = 'my-course'", "name", "my-course"),
        ("", "version", "0.1.0"),
        ("version = ''", "version", "0.1.0"),  # empty: the default's
        ("version = '2.0'", "version", "2.0"),
        ("", "secret_cases", "cases"),
        ("secret_cases = '../secrets'", "secret_cases", "../secrets"),
        ("", "max_submission_kb", 1024),
        ("max_submission_kb = 1", "max_submission_kb", 1),
        ("", "submissions", MappingProxyType({})),
        ("[submissions]\nkv-pages = 'pages.py'", "submissions", {"kv-pages": "pages.py"}),
    ],
)
def test_a_key_sets_its_field(tmp_path: Path, written: str, field: str, value: object) -> None:
    (tmp_path / "grade.toml").write_text(written + "\n")
    assert getattr(load_config(tmp_path), field) == value
    assert isinstance(load_config(tmp_path).submissions, MappingProxyType)  # frozen


@pytest.mark.parametrize(
    ("written", "error"),
    [
        ("timeout = 0", "grade.toml: timeout: must be > 0, got 0"),
        ("timeout = -1.5", "timeout: must be > 0, got -1.5"),
        ("timeout = '2'", "timeout: has the wrong type: '2'"),
        ("timeout = true", "timeout: has the wrong type: True"),
        ("jobs = 0", "jobs: must be >= 1, got 0"),
        ("jobs = 1.5", "jobs: has the wrong type: 1.5"),
        ("sandbox = 'loose'", "sandbox: must be one of strict, auto, off, got 'loose'"),
        ("max_submission_kb = 0", "max_submission_kb: must be 1 to 1048576, got 0"),
        ("max_submission_kb = 1048577", "must be 1 to 1048576, got 1048577"),
        ("name = 3", "name: has the wrong type: 3"),
        ("submissions = 'a.py'", "submissions: has the wrong type: 'a.py'"),
        ("[submissions]\nadd = 'sum.txt'", "submissions.add: must be a file name ending in .py"),
        ("[submissions]\nadd = 3", "submissions.add: must be a file name ending in .py: 3"),
        ("[submissions]\nadd = '../x.py'", "submissions.add: must be a file name ending in .py"),
        ("timeuot = 2", "timeuot: unknown key; did you mean 'timeout'?"),
    ],
)
def test_a_wrong_value_names_its_key(tmp_path: Path, written: str, error: str) -> None:
    (tmp_path / "grade.toml").write_text(written + "\n")
    with pytest.raises(ExerciseError, match=re.escape(error)):
        load_config(tmp_path)


def test_pyproject_keys_are_named_with_their_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.grade]\njobs = 0\n")
    with pytest.raises(ExerciseError, match=re.escape("tool.grade.jobs: must be >= 1, got 0")):
        load_config(tmp_path)


def test_the_docs_show_every_key_as_declared() -> None:
    """docs/teachers.md's grade.toml block is the declaration's own rendering."""
    text = DOCS.read_text(encoding="utf-8")
    block = text.split("```toml\n", 1)[1].split("```", 1)[0]
    assert block == example_file()


def test_the_example_file_is_a_valid_grade_toml(tmp_path: Path) -> None:
    (tmp_path / "grade.toml").write_text(example_file())
    loaded = load_config(tmp_path)
    assert loaded.name == "llm-course-grade" and loaded.submissions == {"kv-pages": "pages.py"}
    assert (loaded.timeout, loaded.jobs, loaded.sandbox) == (10.0, 2, "auto")
    assert Config().max_submission_bytes == 1 << 20
