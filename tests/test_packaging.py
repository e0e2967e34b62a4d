"""What ships: the wheel carries exercises and cases but never reference/, and works anywhere."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from conftest import script

PROJECT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (PROJECT / "pyproject.toml").is_file():
        pytest.skip("needs the project checkout")
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-d", str(out)],
        cwd=PROJECT,
        check=True,
        capture_output=True,
    )
    return out


def _wheel(dist: Path) -> Path:
    (wheel,) = dist.glob("*.whl")
    return wheel


def test_wheel_has_the_public_data_and_no_reference(dist: Path) -> None:
    names = zipfile.ZipFile(_wheel(dist)).namelist()
    # reference/ never ships, but for the checkers the specs name
    assert [n for n in names if "reference" in n] == ["grader/_data/reference/top-k/check.py"]
    assert "grader/_data/exercises/quantize.yaml" in names
    assert "grader/_data/cases/specdec/public/01-sample-good-draft.out" in names
    assert [n for n in names if "/secret/" in n] == []
    assert "grader/sandbox/_child.py" in names


def test_sdist_has_no_reference(dist: Path) -> None:
    (sdist,) = dist.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    # the fixture courses of the tests have toy references of their own; no real one ships,
    # but for the checkers the specs name (the wheel built from the sdist needs them)
    teacher = [
        n for n in names if ("reference" in n or "/secret/" in n) and "/tests/data/" not in n
    ]
    assert teacher == ["grade_autograder-0.1.0/reference/top-k/check.py"]
    assert [n for n in names if "/tests/" in n] == []  # its student scripts solve the exercises
    assert any(n.endswith("cases/quantize/public/01-sample-outlier.out") for n in names)
    assert any(n.endswith("exercises/quantize.yaml") for n in names)


def test_the_editable_install_of_the_quick_start_builds(tmp_path: Path) -> None:
    """pip install -e (the README's quick start) builds an editable wheel: hatchling refuses
    some path rewrites there that a normal build takes."""
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel:editable", "-d", str(tmp_path)],
        cwd=PROJECT,
        check=True,
        capture_output=True,
    )
    assert len(list(tmp_path.glob("*.whl"))) == 1


@pytest.mark.slow
def test_installed_wheel_grades_from_any_directory(dist: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "-q",
            "--target",
            str(target),
            str(_wheel(dist)),
        ],
        check=True,
        capture_output=True,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}
    env.pop("GRADE_ROOT", None)

    def grade(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "grader", *args],
            cwd=elsewhere,
            env=env,
            capture_output=True,
            text=True,
        )

    listing = grade("list")
    assert listing.returncode == 0, listing.stderr
    assert "quantize" in listing.stdout
    result = grade("quantize", str(script("quantize_student.py")), "--format", "json")
    assert result.returncode == 0, result.stderr
    # no secret case ships, and the student is told CI grades more (cases/secret-cases.json)
    secret = json.loads((PROJECT / "cases" / "secret-cases.json").read_text())["quantize"]
    assert f"{secret} secret case(s) of quantize are not here: CI grades them" in result.stderr
    report = json.loads(result.stdout)
    assert report["passed"] == report["total"] > 0
    # the grader ran from the wheel's bundled data, not from this checkout
    probe = grade("show", "specdec")
    assert probe.returncode == 0
    where = subprocess.run(
        [
            sys.executable,
            "-c",
            "from grader.model.resources import find_root; print(find_root(environ={}).kind)",
        ],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert where.stdout.strip() == "bundled"


def test_the_grader_never_imports_numpy_and_help_skips_what_it_does_not_need() -> None:
    code = (
        "import sys\n"
        "from grader.cli import cli\n"
        "try:\n"
        "    cli(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "assert 'rich' not in sys.modules, 'help imported rich'\n"
        "heavies = ('grader.sandbox', 'grader.judging.records', 'grader.model.config', 'yaml')\n"
        "for heavy in heavies:\n"
        "    assert heavy not in sys.modules, f'help imported {heavy}'\n"
        "try:\n"
        f"    cli(['quantize', {str(script('quantize_student.py'))!r}, '--format', 'rich'])\n"
        "except SystemExit as e:\n"
        "    assert e.code == 0, e.code\n"
        "assert 'numpy' not in sys.modules, 'the grader imported numpy'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
