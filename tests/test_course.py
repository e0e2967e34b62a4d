"""A teacher's course: grade init, the config found by walking up, the public/secret layout,
case commands, and packages that never ship a secret."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import fresh_install
import pytest
from click.testing import CliRunner, Result
from conftest import COURSE, DATA, read_until

from grader.cli import cli
from grader.judging.errors import ExerciseError, UsageError
from grader.judging.records import Visibility
from grader.model.cases import own_cases
from grader.model.resources import Root, RootKind, find_root
from grader.model.spec import load_exercise
from grader.sandbox import Sandbox, SandboxMode
from grader.teacher.authoring import new_exercise

PROJECT = Path(__file__).resolve().parent.parent
SOLUTION = COURSE / "reference" / "add" / "solution.py"
PASSES_ADD = "print(sum(int(x) for x in input().split()))\n"


def run(*args: str, input: bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


@pytest.fixture
def course_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A course made by grade init, with the fixture's exercise add copied in; the current
    folder is inside it."""
    folder = tmp_path / "course"
    assert run("init", str(folder)).exit_code == 0
    for name in ("exercises", "cases", "reference"):
        shutil.copytree(COURSE / name, folder / name, dirs_exist_ok=True)
    monkeypatch.chdir(folder)
    return folder


def test_init_writes_a_course_and_refuses_to_write_over_one(tmp_path: Path) -> None:
    folder = tmp_path / "new"
    result = run("init", str(folder), "--ci", "github", "--ci", "gitlab", "--ci", "gradescope")
    assert result.exit_code == 0, result.output
    for relative in (
        "grade.toml",
        ".gitignore",
        ".github/workflows/course.yml",
        ".gitlab-ci.yml",
        "gradescope.sh",
    ):
        assert (folder / relative).is_file()
        assert str(folder / relative) in result.stdout  # absolute paths, as written
    assert os.access(folder / "gradescope.sh", os.X_OK)
    assert (folder / "exercises").is_dir() and (folder / "cases").is_dir()
    # the CI jobs install the grader committed with the course: grade is on no package index
    (wheel,) = (folder / ".grade").glob("grade_autograder-*-py3-none-any.whl")
    for ci_file in (".github/workflows/course.yml", ".gitlab-ci.yml"):
        text = (folder / ci_file).read_text()
        assert f'pip install "./.grade/{wheel.name}"' in text
        assert "grade-autograder==" not in text
    again = run("init", str(folder))
    assert again.exit_code == 2
    assert "holds a course already" in again.stderr


def test_the_course_is_found_from_a_folder_below(
    course_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    below = course_dir / "students" / "ann"
    below.mkdir(parents=True)
    monkeypatch.chdir(below)
    found = find_root(environ={})
    assert (found.path, found.kind) == (course_dir, RootKind.COURSE)
    result = run("list")
    assert result.exit_code == 0
    assert result.stdout.split()[0] == "add"


def test_pyproject_tool_grade_makes_a_course(tmp_path: Path) -> None:
    (tmp_path / "exercises").mkdir()
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.grade]\njobs = 3\n')
    found = find_root(environ={}, cwd=tmp_path)
    assert (found.kind, found.config.jobs) == (RootKind.COURSE, 3)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert find_root(environ={}, cwd=tmp_path).kind is not RootKind.COURSE


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_the_config_sets_defaults_and_options_beat_it(course_dir: Path, tmp_path: Path) -> None:
    (course_dir / "grade.toml").write_text("timeout = 0.5\nsandbox = 'off'\n")
    loop = tmp_path / "loop.py"
    loop.write_text("while True:\n    pass\n")
    result = run("add", str(loop), "--format", "json", "-x")
    messages = {c["message"] for c in json.loads(result.stdout)["cases"]}
    assert any("0.5 s" in m for m in messages), messages
    assert "isolation is reduced" not in result.stderr  # sandbox off: no notice asked for
    faster = run("add", str(loop), "--format", "json", "-x", "--timeout", "0.25")
    assert any("0.25 s" in c["message"] for c in json.loads(faster.stdout)["cases"])


def test_an_unknown_config_key_says_did_you_mean(course_dir: Path) -> None:
    (course_dir / "grade.toml").write_text("timeuot = 3\n")
    result = run("list")
    assert result.exit_code == 3
    assert "grade.toml: timeuot: unknown key; did you mean 'timeout'?" in result.stderr


def test_an_unknown_spec_key_says_did_you_mean(course_dir: Path) -> None:
    spec = course_dir / "exercises" / "add.yaml"
    spec.write_text(spec.read_text().replace("statement:", "statment:"))
    result = run("add", str(SOLUTION))
    assert result.exit_code == 3
    assert "statment: unknown key; did you mean 'statement'?" in result.stderr


def test_list_reports_a_broken_exercise_and_lists_the_others(course_dir: Path) -> None:
    (course_dir / "exercises" / "broken.yaml").write_text("title: [unclosed\n")
    result = run("list")
    assert result.exit_code == 3
    assert result.stdout.split()[0] == "add"
    assert result.stderr.strip() == (
        f"grade: error: {course_dir / 'exercises' / 'broken.yaml'}:2:1: "
        "expected ',' or ']', but got '<stream end>' (while parsing a flow sequence)"
    )


def test_the_folder_decides_what_students_see(course_dir: Path) -> None:
    cases = {c.name: c.visibility for c in own_cases(load_exercise("add", find_root(environ={})))}
    assert cases == {
        "01-sample": Visibility.VISIBLE,
        "02-negative": Visibility.VISIBLE,
        "03-single": Visibility.VISIBLE,
        "04-hidden": Visibility.HIDDEN,
    }


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda c: (c / "cases/add/public/01-sample.in").rename(c / "cases/add/x.in"), "move it"),
        (
            lambda c: shutil.copy(c / "cases/add/public/03-single.in", c / "cases/add/secret"),
            "a public case has this name too",
        ),
        (
            lambda c: (c / "exercises/add.yaml").write_text(
                (c / "exercises/add.yaml")
                .read_text()
                .replace('"One number"', "x, visibility: hidden}")
                .replace("title: x, visibility", "{title: x, visibility")
            ),
            "cases.03-single.visibility: a public case is shown to students",
        ),
    ],
)
def test_a_layout_mistake_is_a_broken_exercise(
    course_dir: Path, change: object, problem: str
) -> None:
    change(course_dir)  # type: ignore[operator]
    with pytest.raises(ExerciseError, match=problem):
        own_cases(load_exercise("add", find_root(environ={})))


def test_case_commands_keep_files_and_metadata_together(course_dir: Path) -> None:
    spec = course_dir / "exercises" / "add.yaml"
    sample = run(
        "add-case",
        "add",
        "05-pair",
        "--input",
        "-",
        "--sample",
        "--title",
        "A pair",
        "--points",
        "2",
        input=b"4 5\n",
    )
    assert sample.exit_code == 0, sample.output
    assert "    points: 2\n" in spec.read_text()  # as a teacher writes it, not 2.0
    assert (course_dir / "cases/add/public/05-pair.out").read_text() == "9\n"
    late = run(
        "add-case",
        "add",
        "06-late",
        "--input",
        "-",
        "--visibility",
        "after_due_date",
        input=b"1 1\n",
    )
    assert late.exit_code == 0, late.output
    assert (course_dir / "cases/add/secret/06-late.in").is_file()
    refused = run("add-case", "add", "07-x", "--input", "-", "--secret", "--sample", input=b"1\n")
    assert refused.exit_code == 2
    moved = run("mv-case", "add", "05-pair", "05-two", "--public")
    assert moved.exit_code == 0, moved.output
    assert not (course_dir / "cases/add/public/05-pair.in").exists()
    exercise = load_exercise("add", find_root(environ={}))
    assert exercise.case_meta["05-two"].title == "A pair" and "05-pair" not in exercise.case_meta
    to_secret = run("mv-case", "add", "03-single", "03-single", "--secret")
    assert to_secret.exit_code == 0, to_secret.output
    assert (course_dir / "cases/add/secret/03-single.out").is_file()
    removed = run("rm-case", "add", "06-late")
    assert removed.exit_code == 0
    assert "06-late" not in spec.read_text()
    assert not (course_dir / "cases/add/secret/06-late.in").exists()
    assert run("rm-case", "add", "06-late").exit_code == 2
    assert run("verify", "add").exit_code == 0


def test_removing_every_case_of_the_spec_leaves_an_exercise_that_loads(course_dir: Path) -> None:
    """Newcomer, following the README's steps: after `grade new`, removing its two cases left
    a bare `cases:` in the spec, which the loader refused (exit 3 for every command after)."""
    assert run("new", "ex2").exit_code == 0
    for name in ("01-sample", "02-negative"):  # the two `grade new` writes
        removed = run("rm-case", "ex2", name)
        assert removed.exit_code == 0, removed.output
    assert load_exercise("ex2", find_root(environ={})).case_meta == {}
    assert run("list").exit_code == 0
    added = run("add-case", "ex2", "01-again", "--input", "-", input=b"1 2\n")
    assert added.exit_code == 0, added.output


def test_new_refuses_a_command_name_and_an_installed_package(course_dir: Path) -> None:
    result = run("new", "list")
    assert result.exit_code == 2
    assert "'list' is a grade command" in result.stderr
    installed = Root(course_dir, RootKind.BUNDLED)
    with pytest.raises(UsageError, match="inside the installed grader"):
        new_exercise("fresh", installed, runner=Sandbox.create(SandboxMode.OFF).run)
    assert not (course_dir / "exercises" / "fresh.yaml").exists()


def install(wheel: Path, target: Path) -> dict[str, str]:
    """The wheel unpacked as pip would (without its dependencies, which this venv has)."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-compile",
            "--disable-pip-version-check",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    return {**os.environ, "PYTHONPATH": str(target), "GRADE_ROOT": ""}


def _lookup_table(wheel: Path) -> str:
    """A 'solution' that prints the expected output of any input it has seen in the package."""
    table = {}
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if name.endswith(".in"):
                answer = archive.read(name[:-3] + ".out").decode()
                table[hashlib.sha256(archive.read(name)).hexdigest()] = answer
    return (
        "import hashlib, sys\n"
        f"TABLE = {table!r}\n"
        "print(TABLE.get(hashlib.sha256(sys.stdin.buffer.read()).hexdigest(), ''), end='')\n"
    )


def _student_wheel(tmp_path: Path) -> tuple[Path, list[str]]:
    """``grade package student`` of the course in the working directory, and its file names."""
    result = run("package", "student", str(tmp_path / "dist"))
    assert result.exit_code == 0, result.output
    wheel = Path(result.stdout.strip())
    return wheel, zipfile.ZipFile(wheel).namelist()


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_the_student_package_holds_no_secret_and_a_lookup_table_scores_0_on_them(
    course_dir: Path, tmp_path: Path
) -> None:
    wheel, names = _student_wheel(tmp_path)
    assert "grader/_data/cases/add/public/01-sample.out" in names
    assert [n for n in names if "secret/" in n or "reference" in n] == []
    assert json.loads(zipfile.ZipFile(wheel).read("grader/_data/secret-cases.json")) == {"add": 1}

    cheat = tmp_path / "cheat.py"
    cheat.write_text(_lookup_table(wheel))
    report = json.loads(run("add", str(cheat), "--format", "json").stdout)  # the teacher's copy
    by_status = {c["name"]: c["status"] for c in report["cases"]}
    assert by_status == {
        "01-sample": "passed",
        "02-negative": "passed",
        "03-single": "passed",
        "04-hidden": "wrong_answer",
    }

    env = install(wheel, tmp_path / "site")
    student = subprocess.run(
        [sys.executable, "-m", "grader", "add", str(SOLUTION), "--format", "json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert student.returncode == 0, student.stderr
    assert json.loads(student.stdout)["total"] == 3
    assert "1 secret case(s) of add are not here: CI grades them" in student.stderr


@pytest.mark.slow  # a fresh venv with the course's wheel and its watch extra: ~15 s
def test_every_student_command_works_from_the_student_package(
    course_dir: Path, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """As a student installs it (README, Students): a fresh venv, the course's wheel with its
    watch extra; then each command a student runs, from that venv alone."""
    wheel, _names = _student_wheel(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    grade = fresh_install.install(tmp_path_factory, wheel, f'pip install "{wheel}[watch]"', home)
    for line, needs in [
        ("grade show add --samples samples", "wrote"),
        ("grade site practice", "index.html"),
        ("grade list", "add"),
    ]:
        done = grade.run(line, home)
        assert done.returncode == 0 and needs in done.stdout + done.stderr, (line, done.stderr)
    assert (home / "practice" / "add.html").is_file()
    sample = (home / "samples" / "01-sample.in").read_bytes()
    tried = subprocess.run(
        ["grade", "run", "add", str(SOLUTION)],
        cwd=home,
        env=grade.env(),
        input=sample,
        capture_output=True,
    )
    assert tried.returncode == 0 and b"expected output (case 01-sample)" in tried.stdout
    _watch_regrades_on_save(grade, home)


def _watch_regrades_on_save(grade: fresh_install.Installed, home: Path) -> None:
    script = home / "sum.py"
    script.write_text("print(0)\n")
    proc = subprocess.Popen(
        ["grade", "add", "sum.py", "--watch", "--format", "plain"],
        cwd=home,
        env=grade.env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    try:
        read_until(proc.stdout.fileno(), b"0/3 cases passed", bytearray())
        script.write_text(SOLUTION.read_text())  # the student saves
        read_until(proc.stdout.fileno(), b"3/3 cases passed", bytearray())
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert b"changed; last time 0/3" in err


def test_package_requirements_match_pyproject() -> None:
    from grader.model.config import tomllib  # type: ignore[attr-defined]
    from grader.publish.packaging import REQUIRES

    project = tomllib.loads((PROJECT / "pyproject.toml").read_text())["project"]
    assert sorted(REQUIRES) == sorted(project["dependencies"])


def test_the_checker_ships_in_the_student_package(tmp_path: Path) -> None:
    result = run("package", "student", str(tmp_path), "--root", str(DATA / "checker_course"))
    assert result.exit_code == 0, result.output
    names = zipfile.ZipFile(result.stdout.strip()).namelist()
    assert "grader/_data/reference/divisor/check.py" in names
    assert [n for n in names if "solution" in n or "secret/" in n] == []


@pytest.mark.parametrize("name", ["../../outside", "/tmp/x", "x" * 300])
def test_case_commands_refuse_names_that_leave_the_course(
    course_dir: Path, tmp_path: Path, name: str
) -> None:
    victim = tmp_path / "outside.in"
    victim.write_text("keep me")
    for argv in (["rm-case", "add", name], ["mv-case", "add", name, "fine"]):
        result = run(*argv)
        assert result.exit_code == 2, result.output
        assert "grade: error: case name" in result.stderr
    assert victim.read_text() == "keep me"


def test_init_writes_a_folder_name_as_data(tmp_path: Path) -> None:
    folder = tmp_path / 'x"\nsandbox = "off'
    assert run("init", str(folder)).exit_code == 0
    assert find_root(environ={}, cwd=folder).config.sandbox is None


def test_secret_metadata_lives_beside_the_secret_cases(course_dir: Path, tmp_path: Path) -> None:
    """The spec ships; a secret case's title and hint can give it away, so they never are in it."""
    added = run(
        "add-case",
        "add",
        "09-x",
        "--input",
        "-",
        "--secret",
        "--hint",
        "SECRET HINT.",
        input=b"2 2\n",
    )
    assert added.exit_code == 0, added.output
    spec = (course_dir / "exercises" / "add.yaml").read_text()
    assert "SECRET HINT" not in spec and "09-x" not in spec
    hidden = course_dir / "cases" / "add" / "secret" / "cases.yaml"
    assert "SECRET HINT" in hidden.read_text()
    wheel = Path(run("package", "student", str(tmp_path / "dist")).stdout.strip())
    with zipfile.ZipFile(wheel) as archive:
        assert not any(b"SECRET HINT" in archive.read(n) for n in archive.namelist())
    moved = run("mv-case", "add", "09-x", "09-y", "--public")
    assert moved.exit_code == 0, moved.output
    assert "09-x" not in hidden.read_text()
    assert load_exercise("add", find_root(environ={})).case_meta["09-y"].hint == "SECRET HINT."
    assert run("verify", "add").exit_code == 0


def test_the_course_sets_the_size_cap_and_the_file_a_batch_grades(
    course_dir: Path, tmp_path: Path
) -> None:
    (course_dir / "grade.toml").write_text("max_submission_kb = 1\n[submissions]\nadd = 'sum.py'\n")
    big = tmp_path / "big.py"
    big.write_text(PASSES_ADD + "#" * 2000 + "\n")
    refused = run("add", str(big))
    assert refused.exit_code == 2
    assert "is larger than 1 KiB" in refused.stderr
    # grade run read the script with the default cap and ran it (issue 33): the same refusal
    given = tmp_path / "in.txt"
    given.write_text("1 2\n")
    tried = run("run", "add", str(big), "--input", str(given))
    assert (tried.exit_code, tried.stderr) == (refused.exit_code, refused.stderr)
    ann = tmp_path / "class" / "ann"
    ann.mkdir(parents=True)
    (ann / "helpers.py").write_text("")
    (ann / "sum.py").write_text(PASSES_ADD)
    batch = run("batch", "add", str(tmp_path / "class"), "--json", str(tmp_path / "book.json"))
    assert batch.exit_code == 0, batch.output
    book = json.loads((tmp_path / "book.json").read_text())
    assert book["submissions"][0]["path"].endswith("ann/sum.py")


@pytest.mark.slow  # a wheel built and installed outside the checkout
def test_the_student_wheel_builds_the_practice_site(course_dir: Path, tmp_path: Path) -> None:
    """The GitHub Pages example runs grade site from the course's student wheel, which had no
    grader/site_assets/ (only .py files were packed): half a site, then a traceback."""
    result = run("package", "student", str(tmp_path / "dist"))
    assert result.exit_code == 0, result.output
    env = install(Path(result.stdout.strip()), tmp_path / "site-packages")
    built = subprocess.run(
        [sys.executable, "-m", "grader", "site", str(tmp_path / "public")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    for asset in (
        "app.js",
        "worker.js",
        "judge.js",
        "style.css",
        "add.html",
        "py/judging/browser.py",
    ):
        assert (tmp_path / "public" / asset).is_file(), asset


def _a_repository_that_brings_its_own_course(folder: Path) -> Path:
    """What a student can commit: a grade.toml, the exercise's spec and one easy case."""
    (folder / "exercises").mkdir(parents=True)
    (folder / "grade.toml").write_text('name = "mine"\n')
    shutil.copy(COURSE / "exercises" / "add.yaml", folder / "exercises" / "add.yaml")
    spec = folder / "exercises" / "add.yaml"
    spec.write_text(spec.read_text().split("\ncases:")[0] + "\n")
    easy = folder / "cases" / "add" / "public"
    easy.mkdir(parents=True)
    (easy / "01-easy.in").write_text("x\n")
    (easy / "01-easy.out").write_text("whatever\n")
    script = folder / "add.py"
    script.write_text('print("whatever")\n')
    return script


@pytest.mark.slow  # a wheel built and installed outside the checkout
def test_a_course_package_ignores_a_course_in_the_graded_repository(tmp_path: Path) -> None:
    """Issue 22, finding 4: a committed grade.toml, exercises/add.yaml and one easy case
    replaced the installed course's cases: print("whatever") scored 1/1, exit 0."""
    built = run("package", "student", str(tmp_path / "dist"), "--root", str(COURSE))
    assert built.exit_code == 0, built.output
    env = install(Path(built.stdout.strip()), tmp_path / "site")
    script = _a_repository_that_brings_its_own_course(tmp_path / "repo")
    done = subprocess.run(
        [sys.executable, "-m", "grader", "add", "add.py", "--format", "json"],
        cwd=tmp_path / "repo",
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["total"] == 3 and report["passed"] == 0  # the course's public cases
    assert report["course"]["found"] == "bundled"
    assert script.read_text() == 'print("whatever")\n'


def test_a_course_found_by_walking_up_is_named(tmp_path: Path) -> None:
    script = _a_repository_that_brings_its_own_course(tmp_path / "repo")
    done = subprocess.run(
        [sys.executable, "-m", "grader", "add", str(script), "--format", "json"],
        cwd=tmp_path / "repo",
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr  # a generic install: the course it found...
    assert f"graded by the course mine at {tmp_path / 'repo'}" in done.stderr  # ...said
    assert json.loads(done.stdout)["course"] == {
        "name": "mine",
        "root": str(tmp_path / "repo"),
        "found": "course",
    }
    strict = subprocess.run(
        [sys.executable, "-m", "grader", "add", str(script), "--sandbox", "strict"],
        cwd=tmp_path / "repo",
        capture_output=True,
        text=True,
    )
    assert strict.returncode == 2
    assert "a submission's own folder cannot bring the course that grades it" in strict.stderr


def test_a_course_package_beside_grade_autograder_says_one_overwrote_the_other(
    tmp_path: Path,
) -> None:
    """Both install the import package grader and the grade script: in one venv the last one
    installed wins, silently. This suite's venv has grade-autograder (the editable install)."""
    from grader.model.resources import shared_install

    package = tmp_path / "grader"
    (package / "_data").mkdir(parents=True)
    assert shared_install(package) is None  # the project's own wheel: no course in it
    (package / "_data" / "grade.toml").write_text('name = "llm-course"\n')
    said = shared_install(package)
    assert said is not None
    assert "both grade-autograder and llm-course are installed here" in said
    assert "pip uninstall grade-autograder" in said


def test_a_course_without_a_name_is_not_named_after_its_folder(tmp_path: Path) -> None:
    from grader.model.resources import Root, RootKind
    from grader.publish.packaging import DEFAULT_NAME, _dist_name

    folder = tmp_path / "my repo"  # a space: the folder's name was the wheel's, and failed
    (folder / "exercises").mkdir(parents=True)
    assert _dist_name(Root(folder, RootKind.EXPLICIT)) == DEFAULT_NAME.replace("-", "_")
