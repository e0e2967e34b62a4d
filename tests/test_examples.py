"""The CI examples in examples/ are real: their grade command lines run here, as written."""

from __future__ import annotations

import csv
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GRADE_BIN = Path(sys.executable).parent


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRADE_")}
    env["PATH"] = f"{GRADE_BIN}{os.pathsep}{env.get('PATH', '')}"
    env.update(extra)
    return env


@pytest.fixture
def student_repo(tmp_path: Path, reference_dir: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(reference_dir / "quantize" / "wrong" / "round_half_up.py", repo / "quantize.py")
    return repo


def _grade_lines(commands: list[str]) -> list[str]:
    lines = [c for c in commands if c.startswith("grade ")]
    assert lines, "the example runs no grade command"
    return lines


def _run(line: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    if shutil.which("grade", path=str(GRADE_BIN)) is None:
        pytest.skip("the grade console script is not installed beside this Python")
    return subprocess.run(
        shlex.split(line), cwd=cwd, env=_env(**env), capture_output=True, text=True, timeout=300
    )


def test_github_workflow(student_repo: Path, tmp_path: Path) -> None:
    workflow = yaml.safe_load((EXAMPLES / "ci" / "github-workflow.yml").read_text())
    steps = workflow["jobs"]["grade"]["steps"]
    summary = tmp_path / "summary.md"
    for line in _grade_lines([s["run"] for s in steps if "run" in s]):
        result = _run(line, student_repo, GITHUB_STEP_SUMMARY=str(summary))
        assert result.returncode == 1, result.stderr  # the student's file fails two cases
        assert result.stdout.startswith("::error file=quantize.py,title=quantize%3A Exact .5 ties")
    assert "| ❌ | Exact \\.5 ties round to even | wrong_answer |" in summary.read_text()


def test_gitlab_job(student_repo: Path) -> None:
    job = yaml.safe_load((EXAMPLES / "ci" / "gitlab-ci.yml").read_text())["grade"]
    report = student_repo / job["artifacts"]["reports"]["junit"]
    for line in _grade_lines(job["script"]):
        done = _run(line, student_repo)
        assert done.returncode == 1, (done.stderr, report.exists() and report.read_text())
    assert report.read_text().startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuite')


def test_batch_example(tmp_path: Path, reference_dir: Path) -> None:
    room = tmp_path / "submissions"
    for name, source in (("ann", "solution.py"), ("ben", "wrong/truncation.py")):
        (room / name).mkdir(parents=True)
        shutil.copy(reference_dir / "quantize" / source, room / name / "quantize.py")
    if shutil.which("grade", path=str(GRADE_BIN)) is None:
        pytest.skip("the grade console script is not installed beside this Python")
    result = subprocess.run(
        ["bash", str(EXAMPLES / "batch.sh"), str(room)],
        cwd=tmp_path,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader((tmp_path / "gradebook.csv").read_text().splitlines()))
    # however many cases the exercise has (a teacher adds some): ann passes all, ben not
    assert [r["submission"] for r in rows] == ["ann", "ben"]
    assert rows[0]["score"] == "1.0000" and rows[0]["passed"] == rows[0]["total"]
    assert float(rows[1]["score"]) < 1 and int(rows[1]["passed"]) < int(rows[1]["total"])


def _python_310() -> str | None:
    """Gradescope's default image has Python 3.10: a 3.10 interpreter on this machine, if any."""
    pyenv = Path(os.environ.get("PYENV_ROOT", "~/.pyenv")).expanduser()
    for candidate in [
        *sorted(pyenv.glob("versions/3.10.*/bin/python3")),
        Path("/usr/bin/python3.10"),
    ]:
        if candidate.is_file():
            return str(candidate)
    return None


def test_github_pages_workflow_builds_the_site(tmp_path: Path) -> None:
    workflow = yaml.safe_load((EXAMPLES / "ci" / "github-pages.yml").read_text())
    steps = workflow["jobs"]["site"]["steps"]
    project = Path(__file__).resolve().parent.parent
    for line in _grade_lines([s["run"] for s in steps if "run" in s]):
        assert _run(line, tmp_path, GRADE_ROOT=str(project)).returncode == 0
    upload = next(s for s in steps if "upload-pages-artifact" in s.get("uses", ""))
    assert (tmp_path / upload["with"]["path"] / "index.html").is_file()
