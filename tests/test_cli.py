"""The CLI edge: exit codes, one-line errors, JSON on stdout, list/show/regen, help everywhere."""

from __future__ import annotations

import json
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from conftest import COURSE, ONE_QUANTIZE_CASE, SCRIPTS, Golden, read_to_end

from grader.cli import cli
from grader.judging.records import Verdict
from grader.model.resources import Root

SOLUTION = COURSE / "reference" / "add" / "solution.py"
WRONG = COURSE / "reference" / "add" / "wrong" / "drops_last_number.py"
IN_COURSE = {"GRADE_ROOT": str(COURSE)}


def grade_cli(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def test_all_passed_exits_0() -> None:
    result = grade_cli("add", str(SOLUTION), env=IN_COURSE)
    assert result.exit_code == 0, result.output
    assert "4/4 cases passed" in result.stdout


def test_check_is_the_default_command() -> None:
    plain = grade_cli("add", str(WRONG), "--format", "json", env=IN_COURSE)
    explicit = grade_cli("check", "add", str(WRONG), "--format", "json", env=IN_COURSE)
    assert json.loads(plain.stdout)["passed"] == json.loads(explicit.stdout)["passed"] == 0
    assert json.loads(plain.stdout)["total"] == 4


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["--root", str(COURSE), "show", "add"], "(add)"),  # was: unknown exercise 'show'
        (["--root", str(COURSE), "list"], "add"),
        (["--root", str(COURSE), "add", str(SOLUTION)], "4/4 cases passed"),  # check, as before
        (["--root", str(COURSE), "check", "add", str(SOLUTION)], "4/4 cases passed"),
    ],
)
def test_a_commands_option_may_come_before_the_command(args: list[str], shown: str) -> None:
    """A newcomer wrote grade --root DIR show EX and was told the exercise 'show' is unknown."""
    result = grade_cli(*args)
    assert result.exit_code == 0, result.output
    assert shown in result.stdout


def test_a_failure_exits_1() -> None:
    result = grade_cli("add", str(WRONG), env=IN_COURSE)
    assert result.exit_code == 1
    assert "wrong_answer" in result.stdout
    # the fixture's known-wrong solution: its mistake is recognised, instead of the case's hint
    assert "mistake   your output is exactly that of a program that forgets the last number" in (
        result.stdout
    )


def test_json_shape_for_ci(tmp_path: Path) -> None:
    crash = tmp_path / "crash.py"
    crash.write_text("print(6)\nraise SystemExit('boom')\n")
    result = grade_cli("add", str(crash), "--format", "json", env=IN_COURSE)
    assert result.exit_code == 1
    report = json.loads(result.stdout)  # stdout holds nothing but the JSON object
    assert set(report) >= {"exercise", "submission", "passed", "total", "score", "cases"}
    assert report["exercise"] == "add"
    assert report["submission"].endswith("crash.py")
    assert isinstance(report["passed"], int) and isinstance(report["total"], int)
    assert report["total"] == 4
    assert isinstance(report["score"], float) and 0 <= report["score"] <= 1
    for case in report["cases"]:
        assert set(case) >= {"name", "status", "time_s", "exit_code", "message"}
        assert case["status"] in {v.value for v in Verdict}
        assert isinstance(case["time_s"], float)
        assert case["exit_code"] is None or isinstance(case["exit_code"], int)
        assert isinstance(case["message"], str)
    assert report["cases"][0]["status"] == "runtime_error"
    assert report["cases"][0]["exit_code"] == 1
    assert report["cases"][0]["message"] == "exited with code 1: boom (the output itself was right)"


def test_json_exit_code_is_null_when_killed() -> None:
    result = grade_cli(
        "quantize",
        str(SCRIPTS / "sleep_ignoring_sigterm.py"),
        "--format",
        "json",
        "--timeout",
        "0.3",
        "--cases",
        str(ONE_QUANTIZE_CASE),
    )
    case = json.loads(result.stdout)["cases"][0]
    assert case["status"] == "timeout"
    assert case["exit_code"] is None


def test_score_uses_points(tmp_path: Path) -> None:
    # right on the one-number case (1 point) only: dropping the last of one number leaves 0...
    half = tmp_path / "half.py"
    half.write_text("n = input().split()\nprint(sum(map(int, n)) if len(n) > 1 else 0)\n")
    result = grade_cli("add", str(half), "--format", "json", env=IN_COURSE)
    report = json.loads(result.stdout)
    # ...wrong there, right on the other three, the hidden 2-point case among them
    assert report["max_points"] == 5
    assert report["points"] == sum(c["points"] for c in report["cases"]) == 4
    assert report["score"] == pytest.approx(0.8)


def test_cases_dir_grades_other_cases(tmp_path: Path) -> None:
    (tmp_path / "a.in").write_text("40 2\n")
    (tmp_path / "a.out").write_text("42\n")
    result = grade_cli(
        "add", str(SOLUTION), "--cases", str(tmp_path), "--format", "json", env=IN_COURSE
    )
    report = json.loads(result.stdout)
    assert [c["name"] for c in report["cases"]] == ["a"]
    assert result.exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["quantise", "x.py"], "unknown exercise 'quantise'; did you mean 'quantize'?"),
        (["quantize", "does-not-exist.py"], "submission does-not-exist.py does not exist"),
        (["quantize", "."], "is a folder"),
        (["quantize", "my.ipynb"], "submission my.ipynb is not a notebook: not valid JSON"),
        (["quantize", "notes.txt"], "is not a Python script (.py) nor a notebook (.ipynb)"),
        (["quantize", "/dev/zero"], "is not a regular file"),
    ],
)
def test_usage_errors_exit_2_with_one_line(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my.ipynb").write_text('{"cells": [')
    (tmp_path / "notes.txt").write_text("print(1)")
    result = grade_cli(*args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["quantize", "x.py", "--jobs", "0"],
        ["quantize", "x.py", "--timeout", "-1"],
        ["quantize", "x.py", "--format", "xml"],
        ["quantize"],
        ["quantize", "x.py", "--bogus"],
    ],
)
def test_bad_options_exit_2(args: list[str]) -> None:
    assert grade_cli(*args).exit_code == 2


def test_unreadable_submission_exits_2(tmp_path: Path) -> None:
    import os

    if os.geteuid() == 0:
        pytest.skip("root can read any file")
    locked = tmp_path / "locked.py"
    locked.write_text("print(1)")
    locked.chmod(0)
    assert grade_cli("quantize", str(locked)).exit_code == 2


def _break(root: Root, relative: str, text: str | None) -> None:
    path = root.path / relative
    if text is None:
        path.unlink()
    else:
        path.write_text(text)


@pytest.mark.parametrize(
    ("relative", "text", "message"),
    [
        ("exercises/add.yaml", "title: [unclosed\n", "add.yaml:2:1: expected ',' or ']'"),
        (
            "exercises/add.yaml",
            "title: t\nstatement: s\ncolour: red\n",
            "add.yaml: colour: unknown key",
        ),
        ("exercises/add.yaml", "statement: s\n", "add.yaml: title: missing"),
        ("exercises/add.yaml", "title: t\ntitle: u\nstatement: s\n", "duplicate key 'title'"),
        (
            "exercises/add.yaml",
            "title: t\nstatement: s\nlimits: {time_s: -1}\n",
            "add.yaml: limits.time_s: must be > 0",
        ),
        (
            "exercises/add.yaml",
            "title: t\nstatement: s\ncompare: {method: fuzzy}\n",
            "add.yaml: compare.method: unknown comparator 'fuzzy'",
        ),
        (
            "exercises/add.yaml",
            "title: t\nstatement: s\ncases: {01-sample: {visibility: secret}}\n",
            "cases.01-sample.visibility: must be one of",
        ),
        (
            "exercises/add.yaml",
            "title: t\nstatement: s\ncases: {nope: {title: x}}\n",
            "add.yaml: cases.nope: no case nope.in",
        ),
        ("cases/add/public/03-single.out", None, "03-single.in: has no expected output"),
        ("cases/add/public/03-single.in", None, "03-single.out: has no input"),
    ],
)
def test_broken_exercise_exits_3_naming_the_file(
    course_copy: Root, relative: str, text: str | None, message: str
) -> None:
    _break(course_copy, relative, text)
    result = grade_cli("add", str(SOLUTION), "--root", str(course_copy.path))
    assert result.exit_code == 3, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_root_from_environment(course_copy: Root) -> None:
    shutil.copy(course_copy.exercises / "add.yaml", course_copy.exercises / "add2.yaml")
    shutil.copytree(course_copy.cases / "add", course_copy.cases / "add2")
    result = grade_cli("list", env={"GRADE_ROOT": str(course_copy.path)})
    assert [line.split()[0] for line in result.stdout.splitlines()] == ["add", "add2"]


def test_missing_reference_is_a_grader_error_exit_4(course_copy: Root) -> None:
    shutil.rmtree(course_copy.material)
    result = grade_cli("regen", "add", "--check", "--root", str(course_copy.path))
    assert result.exit_code == 4
    assert "has no reference solution" in result.stderr


def test_regen_check_reports_a_stale_output(course_copy: Root) -> None:
    stale = course_copy.cases / "add" / "public" / "02-negative.out"
    stale.write_text("-7\n")
    where = ("--root", str(course_copy.path))
    result = grade_cli("regen", "add", "--check", *where)
    assert result.exit_code == 1
    assert "--7\n+-3\n" in result.stdout
    assert grade_cli("regen", "add", *where).exit_code == 0
    assert stale.read_text() == "-3\n"


def test_regen_check_shows_each_stale_output_as_a_diff_to_the_reference(
    course_copy: Root,
) -> None:
    """A unified diff per .out: the file against the reference's output, a missing one from
    /dev/null, so that a teacher sees what regen would write."""
    public = course_copy.cases / "add" / "public"
    (public / "01-sample.out").unlink()
    (public / "02-negative.out").write_text("-7\n")
    result = grade_cli("regen", "add", "--check", "--root", str(course_copy.path))
    assert result.exit_code == 1
    assert result.stdout == (
        "--- /dev/null\n"
        f"+++ {public / '01-sample.out'} (reference)\n"
        "@@ -0,0 +1 @@\n"
        "+6\n"
        f"--- {public / '02-negative.out'}\n"
        f"+++ {public / '02-negative.out'} (reference)\n"
        "@@ -1 +1 @@\n"
        "--7\n"
        "+-3\n"
    )
    assert result.stderr == "2 file(s) are stale; run: grade regen add\n"


def test_regen_check_names_a_stale_secret_count_for_what_it_is(course_copy: Root) -> None:
    """A secret case added by hand left secret-cases.json behind, and regen --check said
    "what the known-wrong solutions print has changed": a teacher would look there."""
    counts = course_copy.cases / "secret-cases.json"
    counts.write_text('{"add": 7}\n')
    where = ("--root", str(course_copy.path))
    result = grade_cli("regen", "add", "--check", *where)
    assert result.exit_code == 1
    assert result.stdout == (
        f"{counts} is stale: the number of secret cases has changed (grade regen add)\n"
    )
    assert grade_cli("regen", "add", *where).exit_code == 0
    assert grade_cli("regen", "add", "--check", *where).exit_code == 0


def test_list_shows_the_shipped_exercises() -> None:
    result = grade_cli("list")
    assert result.exit_code == 0
    rows = [line.split(None, 1) for line in result.stdout.splitlines()]
    assert ["quantize", "Group-wise absmax int8 quantization"] in rows
    assert ["specdec", "Speculative decoding rounds"] in rows
    assert ["decode-speed", "Memory-bound decode speed"] in rows


def test_list_golden(course_copy: Root, golden: Golden) -> None:
    shutil.copy(course_copy.exercises / "add.yaml", course_copy.exercises / "a-longer-name.yaml")
    result = grade_cli("list", "--root", str(course_copy.path))
    assert result.exit_code == 0
    golden("list.txt", result.stdout)


def test_show_golden_prints_statement_and_samples_only(golden: Golden) -> None:
    result = grade_cli("show", "add", env=IN_COURSE)
    assert result.exit_code == 0
    assert "A hidden check" not in result.stdout and "One number" not in result.stdout
    golden("show_add.txt", result.stdout)


def test_show_indents_every_line_of_a_sample_as_it_is(course_copy: Root) -> None:
    """A sample of two lines, its input ending in a space and its output in an X: each line
    indented, nothing of either end lost but the final newline."""
    public = course_copy.path / "cases" / "add" / "public"
    (public / "01-sample.in").write_text("1 2\n3 \n")
    (public / "01-sample.out").write_text("6 MAX\n")
    result = grade_cli("show", "add", "--root", str(course_copy.path))
    assert result.exit_code == 0
    shown = (
        "Sample: A first sample (01-sample)\n  input:\n    1 2\n    3 \n\n  output:\n    6 MAX\n\n"
    )
    assert shown in result.stdout


def test_run_with_no_input_at_a_terminal_says_how_to_give_one() -> None:
    """grade run waited on a terminal's stdin for an input the student did not know to type."""
    master, slave = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "grader", "run", "add", str(SOLUTION), "--root", str(COURSE)],
            stdin=slave,
            capture_output=True,
            text=True,
        )
    finally:
        os.close(slave)
        os.close(master)
    assert done.returncode == 2
    said = "grade: error: give the input with --input FILE, or pipe it: grade run EX FILE < in"
    assert said in done.stderr.splitlines()


def _commands(group: click.Group) -> list[str]:
    return sorted(group.commands)


@pytest.mark.parametrize("command", [[], *[[c] for c in _commands(cli)]])
def test_every_command_has_help(command: list[str]) -> None:
    result = grade_cli(*command, "--help")
    assert result.exit_code == 0
    assert "Usage:" in result.stdout
    assert "Show this message and exit." in result.stdout


def test_strict_sandbox_failure_exits_4_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from grader.sandbox import Sandbox

    monkeypatch.setattr("grader.sandbox.sandbox._PROBED", {})  # no earlier probe

    monkeypatch.setattr(Sandbox, "_probe", lambda self: {"seccomp": "OSError: nope"})
    result = grade_cli("add", str(SOLUTION), "--sandbox", "strict", env=IN_COURSE)
    assert result.exit_code == 4
    assert result.stderr.startswith("grade: error: --sandbox strict: this machine lacks")
    assert len(result.stderr.strip().splitlines()) == 1


def test_sandbox_off_warns_on_stderr_and_still_grades() -> None:
    result = grade_cli("add", str(SOLUTION), "--sandbox", "off", "--format", "json", env=IN_COURSE)
    assert result.exit_code == 0
    assert "warning: --sandbox off" in result.stderr
    assert json.loads(result.stdout)["passed"] == 4


def test_a_teacher_command_takes_sandbox_off_and_says_so() -> None:
    """grade verify --sandbox off ran in the machine's auto sandbox, and said nothing."""
    off = grade_cli("verify", "add", "--sandbox", "off", env=IN_COURSE)
    assert off.exit_code == 0 and "add: ok" in off.stdout
    assert "grade: warning: --sandbox off: submissions can read the answers" in off.stderr
    assert "warning: --sandbox off" not in grade_cli("verify", "add", env=IN_COURSE).stderr


def test_click_s_own_usage_error_is_one_sentence_in_grade_s_style() -> None:
    result = CliRunner().invoke(cli, ["add", "x.py", "--bogus"], prog_name="grade", env=IN_COURSE)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "grade: error: no such option '--bogus'. (Did you mean one of: '--jobs', '--verbose'?)",
        "  (see: grade check --help)",
    ]


def test_grade_called_from_another_thread_grades(tmp_path: Path) -> None:
    """A library (a notebook's kernel, a web app) may call grade from a thread of its own,
    where Python refuses to set signal handlers: the command runs without them."""
    import threading

    results: list[Result] = []
    thread = threading.Thread(target=lambda: results.append(grade_cli("list", env=IN_COURSE)))
    thread.start()
    thread.join()
    (result,) = results
    assert result.exit_code == 0 and result.stdout.startswith("add  ")


def test_output_over_the_submission_is_refused(tmp_path: Path) -> None:
    mine = tmp_path / "mine.py"
    mine.write_text("print(6)\n")
    result = grade_cli("add", str(mine), "-o", str(mine), env=IN_COURSE)
    assert result.exit_code == 2 and "is the submission; write the results to" in result.stderr
    assert mine.read_text() == "print(6)\n"


def _on_a_terminal(*args: str, env: dict[str, str]) -> str:
    """What ``grade ARGS`` writes to a real terminal (a pty), stderr apart."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "grader", *args],
        stdin=slave,
        stdout=slave,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=Path(__file__).resolve().parent.parent,
    )
    os.close(slave)
    try:
        shown = read_to_end(master)
        proc.wait(timeout=60)
    finally:
        proc.kill()
        os.close(master)
    return shown.decode()


def test_auto_is_rich_on_a_terminal_and_plain_with_no_color() -> None:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["GRADE_ROOT"] = str(COURSE)
    coloured = _on_a_terminal("add", str(WRONG), env=env)
    assert "\x1b[31m" in coloured and "wrong_answer" in coloured
    plain = _on_a_terminal("add", str(WRONG), env={**env, "NO_COLOR": "1"})
    assert "\x1b[" not in plain and "wrong_answer" in plain


def test_a_symlinked_submission_is_refused(tmp_path: Path) -> None:
    """Followed, it could name any file the grader can read and show its first line."""
    secret = tmp_path / "secret.out"
    secret.write_text("the answer\n")
    link = tmp_path / "mine.py"
    link.symlink_to(secret)
    result = grade_cli("add", str(link), env=IN_COURSE)
    assert result.exit_code == 2 and "is a symbolic link" in result.stderr
    assert "the answer" not in result.output


def test_a_submission_inside_a_linked_folder_of_the_checkout_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team: in CI the working directory is the student's repository, where a committed
    link (src -> a private folder) led the grader to a file the student cannot read."""
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    (private / "mine.py").write_text("API_TOKEN = 's3cr3t' oops\n")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "src").symlink_to(private)
    monkeypatch.chdir(repo)
    result = grade_cli("add", "src/mine.py", env=IN_COURSE)
    assert result.exit_code == 2, result.output
    assert "is reached through src, a symbolic link" in result.stderr
    assert "s3cr3t" not in result.output
    # the same through a link to the working directory, as "$PWD/src/mine.py" names it (red
    # team, round 2: the real path of the working directory did not match, and nothing was
    # checked)
    (tmp_path / "here").symlink_to(repo)
    monkeypatch.chdir(tmp_path / "here")
    result = grade_cli("add", str(tmp_path / "here" / "src" / "mine.py"), env=IN_COURSE)
    assert result.exit_code == 2 and "is reached through src, a symbolic link" in result.stderr
    # a path outside the working directory is the caller's own: followed as given
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert grade_cli("add", str(repo / "src" / "mine.py"), env=IN_COURSE).exit_code == 1


def test_gradebooks_never_replace_a_submission_or_a_merge_input(tmp_path: Path) -> None:
    mine = tmp_path / "mine.py"
    mine.write_text("print(6)\n")
    result = grade_cli("batch", "add", str(mine), "--json", str(mine), env=IN_COURSE)
    assert result.exit_code == 2 and "is a submission" in result.stderr
    assert mine.read_text() == "print(6)\n"
    book = tmp_path / "book.json"
    assert grade_cli("batch", "add", str(mine), "--json", str(book), env=IN_COURSE).exit_code == 0
    before = book.read_text()
    result = grade_cli("merge", "-o", str(book), str(book))
    assert result.exit_code == 2 and "is an input of merge" in result.stderr
    assert book.read_text() == before


def test_a_syntax_error_is_reported_once_before_any_case_runs(
    tmp_path: Path, golden: Golden
) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("import sys\ndef f(:\n    pass\n")
    result = grade_cli("add", str(broken), env=IN_COURSE)
    assert result.exit_code == 1
    text = result.stdout.replace(str(broken), "broken.py")
    assert text.count("does not compile") == 1 and "hint" not in text
    golden("compile_error.txt", text)
    report = json.loads(grade_cli("add", str(broken), "--format", "json", env=IN_COURSE).stdout)
    assert {c["status"] for c in report["cases"]} == {"runtime_error"}
    assert {c["message"] for c in report["cases"]} == {
        "does not compile: line 2: invalid syntax",
        "hidden case",  # even this says nothing of a hidden case
    }


def test_add_case_offers_every_visibility() -> None:
    from grader.cli.teacher import VISIBILITIES
    from grader.judging.records import Visibility

    assert tuple(v.value for v in Visibility) == VISIBILITIES


def test_help_on_a_command_that_does_not_exist_is_a_usage_error() -> None:
    """Newcomer: `grade help nonsense` printed check's help and exited 0."""
    result = grade_cli("help", "nonsense")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == "grade: error: no command 'nonsense'"
    close = grade_cli("help", "verif").stderr.splitlines()[0]
    assert close == "grade: error: no command 'verif'; did you mean 'grade help verify'?"
    assert " batch [OPTIONS] EXERCISE PATHS" in grade_cli("help", "batch").stdout
    assert "Grade a Python script against" in grade_cli("help", "help").stdout
    assert "Grade a Python script against" in grade_cli("help", "help", "batch").stdout


def test_a_lone_word_that_is_no_command_nor_exercise_says_how_to_grade() -> None:
    result = grade_cli("nonsense", env=IN_COURSE)
    assert result.exit_code == 2
    said = "grade: error: no command 'nonsense'; to grade a script: grade EXERCISE FILE"
    assert result.stderr.splitlines()[0] == said  # no "did you mean": nothing is close


def test_ctrl_c_while_grade_reads_its_arguments_is_an_interruption(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before any command runs (a lone word makes grade look up the course's exercises),
    Ctrl-C is click's Abort: said as grade's one line and exit 130, never a traceback."""

    def interrupted() -> tuple[str, ...]:
        raise KeyboardInterrupt

    monkeypatch.setattr("grader.cli.base._exercises_here", interrupted)
    result = CliRunner().invoke(cli, ["nonsense"], prog_name="grade", catch_exceptions=False)
    assert result.exit_code == 130
    assert result.stderr.splitlines()[-1] == "grade: interrupted"
    assert result.stdout == ""


def test_any_other_click_error_is_one_line_and_its_exit_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A click error that is not a usage mistake (a file click could not open) is grade's one
    line too, with click's exit status."""

    def unreadable(root: object) -> list[str]:
        raise click.FileError("exercises", hint="gone")

    monkeypatch.setattr("grader.model.spec.exercise_names", unreadable)
    result = CliRunner().invoke(cli, ["list"], env=IN_COURSE, catch_exceptions=False)
    assert result.exit_code == 1
    assert result.stderr == "grade: error: could not open file 'exercises': gone\n"
    assert result.stdout == ""


def test_grade_alone_shows_its_help() -> None:
    """Newcomer: bare `grade` printed its whole help as `grade: error: usage: ...`."""
    result = grade_cli()
    assert result.exit_code == 2
    assert "Grade a Python script against" in result.stdout
    assert "grade: error" not in result.output


BROKEN_GRADER = """
import sys
import grader.model.spec

def exercise_names(root):
    raise RuntimeError("a bug \\x1b[2J of grade's own")

grader.model.spec.exercise_names = exercise_names
from grader.cli import main
sys.argv = ["grade", "list"]
main()
"""


def _broken_grader(crash_dir: Path) -> subprocess.CompletedProcess[str]:
    """``grade list`` with a bug in it, its crash files going to ``crash_dir``."""
    return subprocess.run(
        [sys.executable, "-c", BROKEN_GRADER],
        capture_output=True,
        text=True,
        env={**os.environ, "GRADE_CRASH_DIR": str(crash_dir)},
        timeout=60,
    )


def test_a_bug_in_grade_exits_4_with_one_line_and_a_crash_file(tmp_path: Path) -> None:
    """An unexpected exception was a traceback and exit 1: CI read it as 'the student failed'."""
    done = _broken_grader(tmp_path)
    assert done.returncode == 4, done.stderr
    assert "Traceback" not in done.stderr and "\x1b" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("grade: internal error (a bug in grade, not your script): RuntimeError")
    (crash,) = tmp_path.glob("grade-crash-*.txt")
    assert str(crash) in line
    text = crash.read_text()
    assert "Traceback (most recent call last)" in text and "in exercise_names" in text
    assert "'list'" in text  # the command, to reproduce it


def test_a_crash_file_that_cannot_be_written_still_gives_the_line(tmp_path: Path) -> None:
    done = _broken_grader(tmp_path / "missing")
    assert done.returncode == 4, done.stderr
    assert "no crash file could be written" in done.stderr


def test_a_crash_file_is_private_and_never_a_guessable_name(tmp_path: Path) -> None:
    """Red team: the crash file's name was predictable (second and pid) and written through a
    link at that name: a local user's link made a root grader overwrite any file."""
    names = set()
    for _ in range(2):
        assert _broken_grader(tmp_path).returncode == 4
    for crash in tmp_path.glob("grade-crash-*.txt"):
        assert not crash.is_symlink() and crash.stat().st_mode & 0o777 == 0o600
        names.add(crash.name)
    assert len(names) == 2


def test_a_reader_that_goes_away_is_no_crash(tmp_path: Path) -> None:
    """Red team: `grade ... | head -1` ended in a BrokenPipeError reported as a bug of grade's
    (exit 4, a crash file)."""
    script = tmp_path / "s.py"
    script.write_text("print(0)\n")
    with subprocess.Popen(
        [sys.executable, "-m", "grader", "add", str(script), "--root", str(COURSE)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "GRADE_CRASH_DIR": str(tmp_path), "NO_COLOR": "1"},
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # before it writes a byte
        err = proc.stderr.read().decode()
        proc.wait(timeout=120)
    assert proc.returncode == 141, err
    assert "internal error" not in err and "Traceback" not in err
    assert list(tmp_path.glob("grade-crash-*")) == []


@pytest.mark.parametrize(
    "encoding",
    # the default suite's time (45 s): the other two in CI's slow pass
    [
        "cp1252",
        pytest.param("ascii", marks=pytest.mark.slow),
        pytest.param("latin-1", marks=pytest.mark.slow),
    ],
)
def test_a_stream_that_cannot_encode_a_check_mark_gets_utf_8(encoding: str) -> None:
    """A Windows pipe is cp1252 (and a Latin-1 locale is Latin-1): the report's ✓ and a
    student's output must reach it, never crash the grader on the way out (it did: exit 4)."""
    done = subprocess.run(
        [sys.executable, "-m", "grader", "--root", str(COURSE), "add", str(SOLUTION)],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": encoding},
    )
    assert done.returncode == 0, done.stderr
    assert "✓ A first sample" in done.stdout.decode("utf-8")


def test_a_terminal_that_cannot_show_a_check_mark_shows_a_question_mark() -> None:
    """A terminal keeps its own encoding (an ASCII one, here): what it lacks is shown as ?,
    never a crash of the grader on the way out."""
    env = {**os.environ, "GRADE_ROOT": str(COURSE), "NO_COLOR": "1", "PYTHONIOENCODING": "ascii"}
    shown = _on_a_terminal("add", str(SOLUTION), env=env)
    assert " ? A first sample    passed" in shown and "4/4 cases passed" in shown, shown


def test_a_closed_stdout_is_no_crash_and_stderr_still_gets_utf_8(tmp_path: Path) -> None:
    """`grade ... >&-` (a cron job's closed stdout) has no stdout stream at all: the other
    stream still gets UTF-8, not a Latin-1 locale's byte E9 for é."""
    done = subprocess.run(
        [sys.executable, "-m", "grader", "--root", str(COURSE), "add", str(tmp_path / "café.py")],
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONIOENCODING": "latin-1"},
        preexec_fn=lambda: os.close(1),
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.decode("utf-8").endswith("café.py does not exist\n")


def test_the_first_time_out_on_a_terminal_says_that_x_stops_there(tmp_path: Path) -> None:
    """Issue 37: an endless loop cost one time limit per case (48-56 s) with nothing saying
    that -x stops at the first failure (9 s). Said once, on a terminal; not with -x itself,
    nor in a report piped or written for CI."""
    from grader.cli.live import EXITFIRST_TIP

    loop = tmp_path / "loop.py"
    loop.write_text("while True:\n    pass\n")
    env = {**os.environ, "GRADE_ROOT": str(COURSE), "NO_COLOR": "1"}
    args = ["add", str(loop), "--timeout", "0.2", "-k", "01-sample", "-k", "02-negative"]
    shown = _on_a_terminal(*args, env=env)
    assert shown.count("timeout") >= 2 and shown.count(EXITFIRST_TIP) == 1, shown
    one = args[:-2]  # one time-out is enough to say it, or not
    assert EXITFIRST_TIP not in _on_a_terminal(*one, "-x", env=env)
    piped = subprocess.run(
        [sys.executable, "-m", "grader", *one], capture_output=True, text=True, env=env
    )
    assert "timeout" in piped.stdout and EXITFIRST_TIP not in piped.stdout
