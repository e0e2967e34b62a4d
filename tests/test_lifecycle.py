"""A course's whole life, as its teacher, a student and Gradescope live it: grade init, new,
edit, add-case (public and secret), verify, package student (installed in a fresh venv and used
by an ordinary user: public cases only), package gradescope (setup.sh and run_autograder on
Python 3.10: secret cases graded)."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from test_examples import _python_310
from test_sandbox_findings import USER, _user

from grader.cli import cli

pytestmark = pytest.mark.slow

SYSTEM_PYTHON = "/usr/bin/python3"  # an interpreter an ordinary user can run (pyenv's is root's)


def run(*args: str, input: bytes | None = None) -> Result:
    result = CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture
def work() -> Iterator[Path]:
    """A folder an ordinary user can enter (pytest's tmp_path is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="grade-course-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _as_student(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``argv`` as the ordinary user when this runs as root (as on a laptop), else as is."""
    ids = _user() if os.geteuid() == 0 else None
    home = cwd / "home"
    home.mkdir(exist_ok=True)
    env = {
        **{k: v for k, v in os.environ.items() if k.startswith("PIP_")},
        "PATH": os.defpath,
        "HOME": str(home),
    }
    if ids is not None:
        os.chown(home, *ids)
        os.chown(cwd, *ids)
    return subprocess.run(
        argv,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        user=ids[0] if ids else None,
        group=ids[1] if ids else None,
        extra_groups=[] if ids else None,
    )


def test_a_course_from_init_to_gradescope(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    course = work / "course"
    run("init", str(course), "--ci", "gradescope")
    monkeypatch.chdir(course)
    run("new", "tpd")
    spec = course / "exercises" / "tpd.yaml"
    spec.write_text(spec.read_text().replace("(a sum, until you edit it)", "tokens in a batch"))
    run("add-case", "tpd", "03-pair", "--input", "-", "--sample", input=b"4 5\n")
    run(
        "add-case",
        "tpd",
        "04-big",
        "--input",
        "-",
        "--secret",
        "--points",
        "3",
        input=b"100 200 300\n",
    )
    run("verify")
    wheel = Path(run("package", "student", str(work / "dist")).stdout.strip())
    autograder_zip = Path(run("package", "gradescope", str(work / "autograder.zip")).stdout.strip())
    monkeypatch.chdir(work)

    # the student: a fresh venv, the course's wheel, grade on public cases only
    student = work / "student"
    student.mkdir()
    shutil.copy(wheel, student)
    shutil.copy(course / "reference" / "tpd" / "solution.py", student / "tpd.py")
    if not os.access(SYSTEM_PYTHON, os.X_OK):
        pytest.skip(f"no {SYSTEM_PYTHON} for an ordinary user")
    for argv in (
        [SYSTEM_PYTHON, "-m", "venv", "venv"],
        ["venv/bin/pip", "install", "--quiet", wheel.name],
    ):
        done = _as_student(argv, student)
        assert done.returncode == 0, done.stderr
    graded = _as_student(["venv/bin/grade", "tpd", "tpd.py", "--format", "json"], student)
    assert graded.returncode == 0, graded.stderr
    report = json.loads(graded.stdout)
    assert [c["name"] for c in report["cases"]] == ["01-sample", "03-pair"]
    assert "2 secret case(s) of tpd are not here: CI grades them" in graded.stderr
    installed = [str(p) for p in (student / "venv").rglob("*") if "secret/" in f"{p}/"]
    assert installed == []
    if os.geteuid() == 0:
        assert pwd.getpwuid((student / "venv").stat().st_uid).pw_name == USER

    # Gradescope: setup.sh on Python 3.10 (its image's), then run_autograder on a submission
    python = _python_310()
    if python is None:
        pytest.skip("no Python 3.10 on this machine")
    autograder = work / "autograder"
    with zipfile.ZipFile(autograder_zip) as archive:
        archive.extractall(autograder / "source")
    shims = work / "shims"
    shims.mkdir()
    (shims / "python3").symlink_to(python)
    env = {
        **{k: v for k, v in os.environ.items() if k.startswith("PIP_")},
        "PATH": f"{shims}:{os.defpath}",
        "HOME": str(work),
        "AUTOGRADER": str(autograder),
    }
    setup = subprocess.run(
        ["bash", str(autograder / "source" / "setup.sh")], env=env, capture_output=True, text=True
    )
    assert setup.returncode == 0, setup.stderr
    assert (
        "3.10"
        in subprocess.run(
            [str(autograder / "venv" / "bin" / "python"), "--version"],
            capture_output=True,
            text=True,
        ).stdout
    )
    for sub in ("submission", "results"):
        (autograder / sub).mkdir()
    shutil.copy(course / "reference" / "tpd" / "solution.py", autograder / "submission" / "tpd.py")
    graded_there = subprocess.run(
        ["bash", str(autograder / "source" / "run_autograder")],
        env=env,
        capture_output=True,
        text=True,
    )
    assert graded_there.returncode == 0, graded_there.stderr
    results = json.loads((autograder / "results" / "results.json").read_text())
    names = [t["name"] for t in results["tests"]]
    assert len(names) == 4  # the secret cases too
    assert results["score"] == sum(t["max_score"] for t in results["tests"]) == 6
