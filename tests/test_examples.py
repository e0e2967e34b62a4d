"""The CI examples in examples/ are real: their grade command lines run here, as written."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

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
    assert "| ❌ | Exact .5 ties round to even | wrong_answer |" in summary.read_text()


def test_gitlab_job(student_repo: Path) -> None:
    job = yaml.safe_load((EXAMPLES / "ci" / "gitlab-ci.yml").read_text())["grade"]
    for line in _grade_lines(job["script"]):
        assert _run(line, student_repo).returncode == 1
    report = student_repo / job["artifacts"]["reports"]["junit"]
    assert report.read_text().startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuite')


def _run_autograder(
    root: Path, env: dict[str, str]
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """Gradescope's run_autograder on the folder ``root``: the process and results.json."""
    result = subprocess.run(
        ["bash", str(EXAMPLES / "ci" / "gradescope" / "run_autograder")],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    results: dict[str, Any] = json.loads((root / "results" / "results.json").read_text())
    return result, results


def test_gradescope_run_autograder(tmp_path: Path, reference_dir: Path) -> None:
    root = tmp_path / "autograder"
    for sub in ("submission", "results", "source/hidden"):
        (root / sub).mkdir(parents=True)
    shutil.copy(reference_dir / "quantize" / "solution.py", root / "submission" / "mine.py")
    hidden = root / "source" / "hidden"
    cases = Path(__file__).resolve().parent.parent / "cases" / "quantize"
    for name in ("public/03-half-ties", "secret/08-negative-outlier"):
        shutil.copy(cases / f"{name}.in", hidden)
        shutil.copy(cases / f"{name}.out", hidden)
    (hidden / "cases.yaml").write_text(
        "03-half-ties: {title: Hidden ties, points: 3, visibility: after_due_date}\n"
        "08-negative-outlier: {visibility: hidden}\n"
    )
    if shutil.which("grade", path=str(GRADE_BIN)) is None:
        pytest.skip("the grade console script is not installed beside this Python")
    _result, results = _run_autograder(root, _env(AUTOGRADER=str(root)))
    assert results["score"] == 4
    assert [(t["name"], t["visibility"]) for t in results["tests"]] == [
        ("Hidden ties", "after_due_date"),
        ("08-negative-outlier", "hidden"),
    ]


@pytest.mark.parametrize(
    ("files", "graded"),
    [
        (["helpers.py", "quantize.py"], "quantize.py"),  # helpers.py sorts first: not it
        (["mine.py"], "mine.py"),
        (["a.py", "b.py"], None),  # several, none named quantize.py: refused, not guessed
    ],
)
def test_gradescope_picks_the_expected_file(
    tmp_path: Path, reference_dir: Path, files: list[str], graded: str | None
) -> None:
    if shutil.which("grade", path=str(GRADE_BIN)) is None:
        pytest.skip("the grade console script is not installed beside this Python")
    root = tmp_path / "autograder"
    for sub in ("submission", "results"):
        (root / sub).mkdir(parents=True)
    for name in files:
        source = "solution.py" if name == (graded or "") else "wrong/round_half_up.py"
        shutil.copy(reference_dir / "quantize" / source, root / "submission" / name)
    result, results = _run_autograder(root, _env(AUTOGRADER=str(root)))
    if graded is None:
        assert results["score"] == 0
        assert results["output"].startswith("Submit your solution as quantize.py: found a.py b.py")
    else:
        assert f"grading {graded}" in result.stdout
        assert results["score"] == sum(t["max_score"] for t in results["tests"]) > 0
        assert all(t["status"] == "passed" for t in results["tests"])


def test_gradescope_without_a_submission(tmp_path: Path) -> None:
    root = tmp_path / "autograder"
    for sub in ("submission", "results"):
        (root / sub).mkdir(parents=True)
    result = subprocess.run(
        ["bash", str(EXAMPLES / "ci" / "gradescope" / "run_autograder")],
        env=_env(AUTOGRADER=str(root)),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0
    assert json.loads((root / "results" / "results.json").read_text())["score"] == 0


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
    gradebook = (tmp_path / "gradebook.csv").read_text().splitlines()
    assert gradebook[1].startswith("ann,1.0000,10,10,")
    assert gradebook[2].startswith("ben,0.3000,3,10,")


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


@pytest.mark.slow
def test_gradescope_autograder_on_python_310(tmp_path: Path, reference_dir: Path) -> None:
    """setup.sh's install (from this checkout instead of the course's git URL) into a 3.10 venv,
    then run_autograder on a submission folder that also holds a helpers.py."""
    python = _python_310()
    if python is None:
        pytest.skip("no Python 3.10 on this machine")
    root = tmp_path / "autograder"
    for sub in ("submission", "results"):
        (root / sub).mkdir(parents=True)
    subprocess.run([python, "-m", "venv", str(root / "venv")], check=True)
    setup = (EXAMPLES / "ci" / "gradescope" / "setup.sh").read_text()
    install = next(line for line in setup.splitlines() if "/venv/bin/pip install" in line)
    assert install.startswith('/autograder/venv/bin/pip install "grade-autograder @ ')
    subprocess.run(
        [
            str(root / "venv" / "bin" / "pip"),
            "install",
            "--quiet",
            "--disable-pip-version-check",
            str(Path(__file__).resolve().parent.parent),
        ],
        check=True,
        capture_output=True,
    )
    shutil.copy(reference_dir / "quantize" / "solution.py", root / "submission" / "quantize.py")
    (root / "submission" / "helpers.py").write_text("def fmt(x):\n    return f'{x:.5f}'\n")
    result, results = _run_autograder(root, {"PATH": os.defpath, "AUTOGRADER": str(root)})
    assert "grading quantize.py" in result.stdout
    assert results["score"] == sum(t["max_score"] for t in results["tests"]) > 0
