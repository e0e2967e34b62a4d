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
        pytest.param(["mine.py"], "mine.py", marks=pytest.mark.slow),  # the suite's 45 s
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


def test_a_grader_error_leaves_no_results_json_so_nobody_is_charged(
    source: Path, tmp_path: Path
) -> None:
    """Gradescope has no "no score": a results.json would be read as the student's mark, so on
    grade's exit 4 the run shows the report, removes the file and fails, which Gradescope
    shows as a failed autograder run for staff to run again."""
    venv = tmp_path / "venv"
    shutil.copytree(source / "venv", venv, symlinks=True)
    # a grade that fails as a busy machine makes it: the report written, exit 4
    (venv / "bin" / "grade").write_text(
        '#!/bin/sh\nwhile [ "$1" != --output ]; do shift; done\n'
        'echo \'{"output": "not graded: grader error on 1 of 4 cases"}\' > "$2"\nexit 4\n'
    )
    root = tmp_path / "autograder"
    for sub in ("submission", "results"):
        (root / sub).mkdir(parents=True)
    (root / "source").symlink_to(source / "source")
    (root / "venv").symlink_to(venv)
    shutil.copy(SOLUTION, root / "submission" / "sum.py")
    env = json.loads((source / "env.json").read_text())
    done = subprocess.run(
        ["bash", str(root / "source" / "run_autograder")],
        env={**env, "AUTOGRADER": str(root)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert not (root / "results" / "results.json").exists()
    assert "not graded: grader error on 1 of 4 cases" in done.stdout  # the autograder's output
    assert "not graded: a grader error (exit 4)" in done.stderr


def test_a_course_that_turns_the_sandbox_off_is_refused(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    (course / "grade.toml").write_text("sandbox = 'off'\n")
    args = ["package", "gradescope", str(tmp_path / "a.zip"), "--root", str(course)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert "would let a submission read the secret cases" in result.stderr
    assert not (tmp_path / "a.zip").exists()


# a Debian python3 without python3.X-venv: the venv module is there, ensurepip is not, until
# apt-get installs python3-venv
NO_ENSUREPIP = """#!/bin/bash
if [ -e "$MARKS/installed" ]; then exec {python} "$@"; fi
if [ "$1" = "-c" ] && [[ "$2" == *ensurepip* ]]; then exit 1; fi
if [ "$1 $2" = "-m venv" ] && [ "${{3:-}}" != "--help" ]; then
  echo "The virtual environment was not created successfully because ensurepip is not" >&2
  exit 1
fi
exec {python} "$@"
"""
OLD_PYTHON = """#!/bin/bash
if [ "$1" = "--version" ]; then echo "Python 3.8.10"; exit 0; fi
if [ "$1" = "-c" ] && [[ "$2" == *version_info* ]]; then exit 1; fi
exec {python} "$@"
"""
APT_GET = '#!/bin/sh\necho "$@" >> {marks}/apt\ntouch {marks}/installed\n'


def _setup(source: Path, tmp_path: Path, python3: str | None) -> subprocess.CompletedProcess[str]:
    """setup.sh as Gradescope runs it on an image whose python3 is ``python3`` (a shim's text;
    None: this machine's own Python, which has ensurepip), apt-get recording what it is asked."""
    shims, marks = tmp_path / "bin", tmp_path / "marks"
    shims.mkdir()
    marks.mkdir()
    if python3 is None:
        (shims / "python3").symlink_to(sys.executable)
    else:
        (shims / "python3").write_text(python3.format(python=sys.executable))
        (shims / "python3").chmod(0o755)
    (shims / "apt-get").write_text(APT_GET.format(marks=marks))
    (shims / "apt-get").chmod(0o755)
    root = tmp_path / "autograder"
    root.mkdir()
    (root / "source").symlink_to(source / "source")
    return subprocess.run(
        ["bash", str(source / "source" / "setup.sh")],
        env={
            **{k: v for k, v in os.environ.items() if k.startswith("PIP_")},
            "PATH": f"{shims}:{os.defpath}",
            "MARKS": str(marks),
            "AUTOGRADER": str(root),
            "HOME": str(tmp_path),
        },
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.slow  # a real venv, with pip and the grader's dependencies: ~15 s each
@pytest.mark.parametrize("python3", [NO_ENSUREPIP, None], ids=["without-ensurepip", "with-it"])
def test_setup_builds_the_image_and_run_autograder_grades_in_it(
    source: Path, tmp_path: Path, python3: str | None
) -> None:
    """setup.sh installed python3-venv only if `python3 -m venv --help` failed, which it does
    not on Debian or Ubuntu without python3.X-venv; `python3 -m venv DIR` then failed."""
    done = _setup(source, tmp_path, python3)
    assert done.returncode == 0, done.stderr[-3000:]
    apt = tmp_path / "marks" / "apt"
    asked = apt.read_text() if apt.exists() else ""
    if python3 is None:
        assert asked == ""  # nothing to install: apt-get is never asked
    else:
        assert "install -y python3 python3-venv" in asked, (asked, done.stderr[-2000:])
    root = tmp_path / "autograder"
    for sub in ("submission", "results"):
        (root / sub).mkdir()
    shutil.copy(SOLUTION, root / "submission" / "sum.py")
    graded = subprocess.run(
        ["bash", str(root / "source" / "run_autograder")],
        env={"PATH": os.defpath, "AUTOGRADER": str(root), "HOME": str(tmp_path)},
        cwd="/",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert graded.returncode == 0, graded.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == 5 and len(results["tests"]) == 4  # the secret case too


def test_setup_refuses_a_python_older_than_the_grader_says_so(source: Path, tmp_path: Path) -> None:
    done = _setup(source, tmp_path, OLD_PYTHON)
    assert done.returncode == 1
    assert "grade needs Python 3.10 or newer, this image has Python 3.8.10" in done.stderr
    assert not (tmp_path / "autograder" / "venv").exists()
