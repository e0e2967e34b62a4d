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


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_github_workflow(student_repo: Path, tmp_path: Path) -> None:
    workflow = yaml.safe_load((EXAMPLES / "ci" / "github-workflow.yml").read_text())
    steps = workflow["jobs"]["grade"]["steps"]
    summary = tmp_path / "summary.md"
    for line in _grade_lines([s["run"] for s in steps if "run" in s]):
        result = _run(line, student_repo, GITHUB_STEP_SUMMARY=str(summary))
        assert result.returncode == 1, result.stderr  # the student's file fails two cases
        assert result.stdout.startswith("::error file=quantize.py,title=quantize%3A Exact .5 ties")
    assert "| ❌ | Exact \\.5 ties round to even | wrong_answer |" in summary.read_text()


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_gitlab_job(student_repo: Path) -> None:
    job = yaml.safe_load((EXAMPLES / "ci" / "gitlab-ci.yml").read_text())["grade"]
    report = student_repo / job["artifacts"]["reports"]["junit"]
    for line in _grade_lines(job["script"]):
        done = _run(line, student_repo)
        assert done.returncode == 1, (done.stderr, report.exists() and report.read_text())
    assert report.read_text().startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuite')


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
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


# The scale-out examples: a class graded in 3 shards and merged must be the class graded at once.
CLASS_SIZE = 30


@pytest.fixture
def class_course(tmp_path: Path) -> Path:
    """The fixture course with its exercise named as the examples name theirs, and a class of
    30 (right, wrong and crashing scripts) in submissions/, as a course repository holds it."""
    from conftest import COURSE

    course = tmp_path / "course"
    shutil.copytree(COURSE / "cases" / "add", course / "cases" / "quantize")
    shutil.copytree(COURSE / "reference" / "add", course / "reference" / "quantize")
    (course / "exercises").mkdir()
    shutil.copy(COURSE / "exercises" / "add.yaml", course / "exercises" / "quantize.yaml")
    scripts = [
        COURSE / "reference" / "add" / "solution.py",
        *sorted((COURSE / "reference" / "add" / "wrong").glob("*.py")),
    ]
    for i in range(CLASS_SIZE):
        student = course / "submissions" / f"student-{i:02d}"
        student.mkdir(parents=True)
        shutil.copy(scripts[i % len(scripts)], student / "solution.py")
    return course


def _shell(line: str, cwd: Path, course: Path, **env: str) -> None:
    """``line`` as the CI engine's shell runs it (variables and globs expanded)."""
    if shutil.which("grade", path=str(GRADE_BIN)) is None:
        pytest.skip("the grade console script is not installed beside this Python")
    done = subprocess.run(
        ["bash", "-c", line],
        cwd=cwd,
        env=_env(GRADE_ROOT=str(course), **env),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, (line, done.stderr)


def _whole(course: Path) -> str:
    _shell("grade batch quantize submissions --csv whole.csv", course, course)
    return (course / "whole.csv").read_text()


@pytest.mark.slow
def test_github_shards_merge_to_the_unsharded_gradebook(class_course: Path) -> None:
    workflow = yaml.safe_load((EXAMPLES / "ci" / "github-shards.yml").read_text())
    shard, merge = workflow["jobs"]["shard"], workflow["jobs"]["merge"]
    assert merge["needs"] == "shard"
    for k in shard["strategy"]["matrix"]["shard"]:
        for line in _grade_lines([s["run"] for s in shard["steps"] if "run" in s]):
            _shell(line.replace("${{ matrix.shard }}", str(k)), class_course, class_course)
    for line in _grade_lines([s["run"] for s in merge["steps"] if "run" in s]):
        _shell(line, class_course, class_course)
    assert (class_course / "gradebook.csv").read_text() == _whole(class_course)


@pytest.mark.slow
def test_gitlab_parallel_shards_merge_to_the_unsharded_gradebook(class_course: Path) -> None:
    pipeline = yaml.safe_load((EXAMPLES / "ci" / "gitlab-shards.yml").read_text())
    grade_class, merge = pipeline["grade-class"], pipeline["merge"]
    total = grade_class["parallel"]
    for k in range(1, total + 1):
        for line in _grade_lines(grade_class["script"]):
            env = {"CI_NODE_INDEX": str(k), "CI_NODE_TOTAL": str(total)}
            _shell(line, class_course, class_course, **env)
    for line in _grade_lines(merge["script"]):
        _shell(line, class_course, class_course)
    assert (class_course / "gradebook.csv").read_text() == _whole(class_course)


@pytest.mark.slow
def test_kubernetes_indexed_job_merges_to_the_unsharded_gradebook(class_course: Path) -> None:
    text = (EXAMPLES / "ci" / "k8s-indexed-job.yaml").read_text()
    job = yaml.safe_load(text)
    spec = job["spec"]
    assert job["kind"] == "Job" and spec["completionMode"] == "Indexed"
    (container,) = spec["template"]["spec"]["containers"]
    env = {e["name"]: e["value"] for e in container["env"]}
    assert int(env["GRADE_SHARD_TOTAL"]) == spec["completions"] == spec["parallelism"]
    grade_line = container["command"][2].split("&&")[1].strip()
    (class_course / "results").mkdir()
    for index in range(spec["completions"]):
        _shell(grade_line, class_course, class_course, JOB_COMPLETION_INDEX=str(index), **env)
    merge_line = next(
        line.strip("# ").strip() for line in text.splitlines() if "grade merge" in line
    )
    _shell(merge_line, class_course, class_course)
    assert (class_course / "gradebook.csv").read_text() == _whole(class_course)


def _schema_check(schema: str, files: list[Path]) -> None:
    """The platform's own published schema, as check-jsonschema vendors it (offline)."""
    done = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, *map(str, files)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_github_workflow_matches_githubs_schema(tmp_path: Path) -> None:
    from grader.course import GITHUB

    generated = tmp_path / "course.yml"
    generated.write_text(GITHUB.format(pin=".grade/grade_autograder-0.1.0-py3-none-any.whl"))
    project = EXAMPLES.parent
    workflows = [*sorted((EXAMPLES / "ci").glob("github-*.yml")), generated]
    _schema_check(
        "vendor.github-workflows", [*workflows, *(project / ".github" / "workflows").glob("*.yml")]
    )


def test_every_gitlab_pipeline_matches_gitlabs_schema(tmp_path: Path) -> None:
    from grader.course import GITLAB

    generated = tmp_path / "gitlab-ci.yml"
    generated.write_text(GITLAB.format(pin=".grade/grade_autograder-0.1.0-py3-none-any.whl"))
    _schema_check("vendor.gitlab-ci", [*sorted((EXAMPLES / "ci").glob("gitlab-*.yml")), generated])
