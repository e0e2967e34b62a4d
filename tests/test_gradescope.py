"""``grade package gradescope``: the zip's run_autograder grades every case, secret ones
included, and picks the submitted file as a teacher would, never by guessing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import COURSE
from test_course import install

from grader.cli import cli

SOLUTION = COURSE / "reference" / "add" / "solution.py"
WRONG = COURSE / "reference" / "add" / "wrong" / "drops_last_number.py"


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture course's autograder zip, unpacked and its wheel installed (setup.sh's work,
    standing in: a "venv" whose grade and python are this environment's)."""
    folder = tmp_path_factory.mktemp("gradescope")
    course = folder / "course"
    shutil.copytree(COURSE, course)
    (course / "grade.toml").write_text("[submissions]\nadd = 'sum.py'\n")
    out = folder / "autograder.zip"
    args = ["package", "gradescope", str(out), "--root", str(course)]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(out) as archive:
        archive.extractall(folder / "source")
        wheel = next(n for n in archive.namelist() if n.endswith(".whl"))
    env = install(folder / "source" / wheel, folder / "site")
    venv = folder / "venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "grade").write_text(f'#!/bin/sh\nexec {sys.executable} -m grader "$@"\n')
    (venv / "grade").chmod(0o755)
    (venv / "python").symlink_to(sys.executable)
    (folder / "env.json").write_text(json.dumps(env))
    return folder


def autograde(
    source: Path, tmp_path: Path, files: dict[str, Path]
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """A Gradescope run: /autograder with this submission, the shared source and venv."""
    root = tmp_path / "autograder"
    for sub in ("submission", "results"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    for name in ("source", "venv"):
        (root / name).symlink_to(source / name)
    for name, script in files.items():
        shutil.copy(script, root / "submission" / name)
    env = json.loads((source / "env.json").read_text())
    done = subprocess.run(
        ["bash", str(root / "source" / "run_autograder")],
        env={**env, "AUTOGRADER": str(root)},
        cwd="/",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done, json.loads((root / "results" / "results.json").read_text())


def test_the_zip_holds_setup_run_and_every_case_outside_the_wheel(source: Path) -> None:
    """Secret cases sit in a course folder graded with --root, never in site-packages, where
    another installed grader's sandbox would not know to hide them."""
    assert os.access(source / "source" / "run_autograder", os.R_OK)
    assert (source / "source" / "course" / "cases" / "add" / "secret" / "04-hidden.out").is_file()
    (wheel,) = (source / "source").glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert [n for n in names if "secret/" in n or "reference" in n] == []


def test_secret_cases_are_graded_and_stay_hidden(source: Path, tmp_path: Path) -> None:
    done, results = autograde(source, tmp_path, {"sum.py": SOLUTION})
    assert "grading sum.py" in done.stdout
    assert results["score"] == 5  # three public cases and the secret one, worth 2
    hidden = results["tests"][-1]
    assert (hidden["name"], hidden["visibility"]) == ("A hidden check", "hidden")


@pytest.mark.parametrize(
    ("files", "graded"),
    [
        (["helpers.py", "sum.py"], "sum.py"),  # helpers.py sorts first: not it
        (["mine.py"], "mine.py"),
        (["a.py", "b.py"], None),  # several, none named sum.py: refused, not guessed
    ],
)
def test_the_expected_file_is_picked(
    source: Path, tmp_path: Path, files: list[str], graded: str | None
) -> None:
    chosen = {name: SOLUTION if name == graded else WRONG for name in files}
    done, results = autograde(source, tmp_path, chosen)
    if graded is None:
        assert results["score"] == 0
        assert results["output"].startswith("Submit your solution as sum.py: found a.py b.py")
    else:
        assert f"grading {graded}" in done.stdout
        assert results["score"] == sum(t["max_score"] for t in results["tests"]) == 5


def test_no_submission_scores_0_with_a_message(source: Path, tmp_path: Path) -> None:
    _done, results = autograde(source, tmp_path, {})
    assert results["score"] == 0
    assert results["output"] == "No .py file was submitted: submit sum.py."


def test_only_regular_files_count(source: Path, tmp_path: Path) -> None:
    """A folder or a symlink named like a script is not a submission."""
    root = tmp_path / "autograder" / "submission"
    root.mkdir(parents=True)
    (root / "sum.py").symlink_to("/etc/hostname")
    (root / "other.py").mkdir()
    _done, results = autograde(source, tmp_path, {})
    assert results["output"] == "No .py file was submitted: submit sum.py."


def test_a_course_that_turns_the_sandbox_off_is_refused(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    (course / "grade.toml").write_text("sandbox = 'off'\n")
    args = ["package", "gradescope", str(tmp_path / "a.zip"), "--root", str(course)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert "would let a submission read the secret cases" in result.stderr
    assert not (tmp_path / "a.zip").exists()


NO_ENSUREPIP = """#!/bin/bash
# a Debian python3 without python3.X-venv: the venv module is there, ensurepip is not
if [ -e "$MARKS/installed" ]; then exec {python} "$@"; fi
if [ "$1" = "-c" ] && [[ "$2" == *ensurepip* ]]; then exit 1; fi
if [ "$1 $2" = "-m venv" ] && [ "${{3:-}}" != "--help" ]; then
  echo "The virtual environment was not created successfully because ensurepip is not" >&2
  exit 1
fi
exec {python} "$@"
"""


@pytest.mark.slow  # a real venv, with pip: ~15 s
def test_setup_installs_venv_where_ensurepip_is_missing(source: Path, tmp_path: Path) -> None:
    """setup.sh installed python3-venv only if `python3 -m venv --help` failed, which it does
    not on Debian or Ubuntu without python3.X-venv; `python3 -m venv DIR` then failed."""
    shims, marks = tmp_path / "bin", tmp_path / "marks"
    shims.mkdir()
    marks.mkdir()
    (shims / "python3").write_text(NO_ENSUREPIP.format(python=sys.executable))
    (shims / "apt-get").write_text(
        f'#!/bin/sh\necho "$@" >> {marks}/apt\ntouch {marks}/installed\n'
    )
    for shim in shims.iterdir():
        shim.chmod(0o755)
    root = tmp_path / "autograder"
    root.mkdir()
    (root / "source").symlink_to(source / "source")
    done = subprocess.run(
        ["bash", str(source / "source" / "setup.sh")],
        env={
            "PATH": f"{shims}:{os.defpath}",
            "MARKS": str(marks),
            "AUTOGRADER": str(root),
            "PIP_NO_INDEX": "1",  # the dependencies are not what this checks: fail fast
            "HOME": str(tmp_path),
        },
        capture_output=True,
        text=True,
        timeout=300,
    )
    asked = (marks / "apt").read_text() if (marks / "apt").exists() else ""
    assert "install -y python3 python3-venv" in asked, (asked, done.stderr[-2000:])
    assert (root / "venv" / "bin" / "python").exists()  # the venv it failed to make before
