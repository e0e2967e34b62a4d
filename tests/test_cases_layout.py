"""Where cases live, decided in cases.py alone: which folder each case comes from, whether it
ships, and where its files go in a course the grader writes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import COURSE

from grader.model.cases import (
    case_files,
    case_names,
    course_paths,
    exercise_cases,
    own_cases,
    public_folder,
    secret_folder,
)
from grader.model.resources import Root, RootKind, find_root
from grader.model.spec import Exercise, load_exercise


@pytest.fixture
def add_copy(tmp_path: Path) -> Exercise:
    shutil.copytree(COURSE, tmp_path / "course")
    return load_exercise("add", Root(tmp_path / "course", RootKind.EXPLICIT))


@pytest.mark.parametrize(
    ("name", "secret"),
    [("01-sample", False), ("02-negative", False), ("03-single", False), ("04-hidden", True)],
)
def test_a_case_knows_whether_it_ships(add: Exercise, name: str, secret: bool) -> None:
    (case,) = [c for c in own_cases(add) if c.name == name]
    assert case.secret is secret


def test_a_cases_folder_given_to_ci_never_ships(add: Exercise, tmp_path: Path) -> None:
    folder = tmp_path / "ci-cases"
    folder.mkdir()
    for path in case_files(public_folder(add), "01-sample"):
        shutil.copy(path, folder / path.name)
    (case,) = exercise_cases(add, folder)
    assert case.secret


def test_folders_and_files(add: Exercise) -> None:
    assert public_folder(add) == add.cases_dir / "public"
    assert secret_folder(add) == add.root.secret_cases / "add" / "secret"
    assert case_files(Path("f"), "01-x") == (Path("f/01-x.in"), Path("f/01-x.out"))
    assert case_names(public_folder(add)) == ["01-sample", "02-negative", "03-single"]
    assert case_names(add.cases_dir / "nowhere") == []


def test_a_course_keeps_the_layout(add: Exercise) -> None:
    cases = {c.name: c for c in own_cases(add)}
    assert course_paths(add, cases["01-sample"], "course") == {
        "course/cases/add/public/01-sample.in": public_folder(add) / "01-sample.in",
        "course/cases/add/public/01-sample.out": public_folder(add) / "01-sample.out",
    }
    hidden = course_paths(add, cases["04-hidden"], "d")
    assert sorted(hidden) == ["d/cases/add/secret/04-hidden.in", "d/cases/add/secret/04-hidden.out"]
    assert all(p.is_file() for p in hidden.values())


def test_secret_cases_may_live_elsewhere(add_copy: Exercise, tmp_path: Path) -> None:
    """grade.toml's secret_cases moves secret/ out of the course: the case is still secret."""
    root = add_copy.root.path
    elsewhere = tmp_path / "private"
    shutil.move(str(secret_folder(add_copy)), elsewhere / "add" / "secret")
    (root / "grade.toml").write_text(f'secret_cases = "{elsewhere}"\n')
    moved = load_exercise("add", find_root(root, environ={}))
    assert secret_folder(moved) == elsewhere / "add" / "secret"
    assert [c.name for c in own_cases(moved) if c.secret] == ["04-hidden"]


def test_case_files_checked_out_with_crlf_are_the_same_case(add_copy: Exercise) -> None:
    """git's core.autocrlf on Windows writes \\r\\n: the input a run gets, and so its verdict,
    must not depend on the checkout."""
    before = {c.name: (c.input, c.expected) for c in exercise_cases(add_copy)}
    for path in (add_copy.root.path / "cases").rglob("*.*"):
        if path.suffix in (".in", ".out"):
            path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    after = {c.name: (c.input, c.expected) for c in exercise_cases(add_copy)}
    assert after == before
    assert all(b"\r" not in data for data, _ in after.values())
