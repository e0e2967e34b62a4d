"""The commands' library functions, called as the CLI calls them (grader/commands/): each
command's steps without its parsing and printing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.commands.checking import CheckOptions, start_check
from grader.commands.classes import ClassOptions, start_class
from grader.commands.options import GradingOptions
from grader.commands.planning import plan_for
from grader.commands.trying import try_one
from grader.judging.errors import SubmissionError, UsageError
from grader.model.resources import Root, find_root
from grader.model.spec import Exercise, load_exercise
from grader.sandbox import SandboxMode

RIGHT = "print(sum(int(x) for x in input().split()))\n"
WRONG = "print(0)\n"
OFF = GradingOptions(sandbox_mode=SandboxMode.OFF)


def test_check_grades_the_text_read_before_any_run(add: Exercise, tmp_path: Path) -> None:
    script = tmp_path / "mine.py"
    script.write_text(RIGHT)
    heard: list[str] = []
    check = start_check(add, script, CheckOptions(), OFF, say=heard.append)
    script.write_text(WRONG)  # saved again once grading began: the first version is graded
    assert check.grade(check.first, say=heard.append).feedback().exit_code == 0
    assert check.grade(check.read(), say=heard.append).feedback().exit_code == 1


def test_check_chooses_its_cases_and_says_how_many(add: Exercise, tmp_path: Path) -> None:
    script = tmp_path / "mine.py"
    script.write_text(WRONG)
    every = start_check(add, script, CheckOptions(), OFF, say=print)
    name = every.plan.cases[0].name
    check = start_check(add, script, CheckOptions(keywords=(name,)), OFF, say=print)
    assert [c.name for c in check.plan.cases] == [name]
    assert check.selected == f"; 1 of {len(every.plan.cases)} cases"
    heard: list[object] = []
    report = check.grade(check.first, say=print, on_cases=heard.append)
    assert heard == [report.feedback()]  # the cases' feedback, before any fuzzing


@pytest.mark.parametrize(
    ("options", "refused"),
    [
        (dict(save_case="found"), "--save-case keeps what --fuzz finds"),
        (dict(save_case="found", fuzz_count=3), None),
        (dict(fuzz_count=3), None),
    ],
)
def test_check_options_refuse_what_means_nothing(
    options: dict[str, object], refused: str | None
) -> None:
    if refused is None:
        CheckOptions(**options)  # type: ignore[arg-type]
        return
    with pytest.raises(UsageError, match=refused):
        CheckOptions(**options)  # type: ignore[arg-type]


def test_run_refuses_the_script_check_refuses(add: Exercise, tmp_path: Path) -> None:
    folder = tmp_path / "a-folder.py"
    folder.mkdir()
    asked: list[bool] = []

    def given() -> bytes:
        asked.append(True)
        return b"1 2\n"

    with pytest.raises(SubmissionError):
        try_one(add, folder, given, OFF, say=print)
    with pytest.raises(SubmissionError):
        start_check(add, folder, CheckOptions(), OFF, say=print)
    assert asked == []  # refused before the input was asked for


def test_a_class_writes_its_files_and_drops_its_journal(add: Exercise, tmp_path: Path) -> None:
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "ann.py").write_text(RIGHT)
    (tmp_path / "class" / "bob.py").write_text(WRONG)
    book_file, csv_file = tmp_path / "book.json", tmp_path / "book.csv"
    options = ClassOptions((str(tmp_path / "class"),), csv_file=csv_file, json_file=book_file)
    started = start_class(add, options, OFF, say=print)
    assert [s.name for s in started.found] == ["ann", "bob"]
    assert started.journal is not None and started.journal.path.exists()
    rows: list[str] = []
    book = started.grade(on_done=lambda entry: rows.append(entry.submission))
    assert sorted(rows) == ["ann", "bob"]
    assert [e.submission for e in book.entries] == ["ann", "bob"]
    written = json.loads(book_file.read_text())
    assert [s["submission"] for s in written["submissions"]] == ["ann", "bob"]
    assert csv_file.read_text().splitlines()[1].startswith("ann,1.0")
    assert not started.journal.path.exists()


def test_resume_needs_the_file_its_journal_is_beside() -> None:
    with pytest.raises(UsageError, match="--resume needs the --json or --csv"):
        ClassOptions(("class",), resume=True)
    assert ClassOptions(("class",), resume=True, csv_file=Path("b.csv")).kept == Path("b.csv")


@pytest.mark.parametrize(
    ("given", "jobs", "time_s"),
    [
        (GradingOptions(sandbox_mode=SandboxMode.OFF), 2, 0.7),  # the course's grade.toml
        (GradingOptions(sandbox_mode=SandboxMode.OFF, jobs=3, timeout_s=0.5), 3, 0.5),
    ],
)
def test_an_option_left_out_takes_the_course_setting(
    course_copy: Root, given: GradingOptions, jobs: int, time_s: float
) -> None:
    (course_copy.path / "grade.toml").write_text("jobs = 2\ntimeout = 0.7\nsandbox = 'strict'\n")
    exercise = load_exercise("add", find_root(course_copy.path, environ={}))
    heard: list[str] = []
    plan = plan_for(exercise, given, say=heard.append)
    assert (plan.jobs, plan.limits.time_s) == (jobs, time_s)
    assert plan.sandbox is not None and plan.sandbox.mode is SandboxMode.OFF
    assert any("sandbox" in line or "isolat" in line for line in heard), heard  # off says so


def test_resume_keeps_only_the_rows_of_unchanged_submissions(
    add: Exercise, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 38, finding 8: a journal resumed by another class at the same --json path gave
    the new gradebook a student of the old class, and another's score."""
    from grader.running.gradebook import Journal

    monkeypatch.setattr(Journal, "remove", lambda self: None)  # as if killed before the end
    first = tmp_path / "first"
    first.mkdir()
    for name, text in {"ann": RIGHT, "bob": WRONG, "dan": RIGHT}.items():
        (first / f"{name}.py").write_text(text)
    book = tmp_path / "book.json"
    start_class(add, ClassOptions((str(first),), json_file=book), OFF, say=print).grade()
    (first / "bob.py").write_text(RIGHT)  # edited since: graded again
    again = start_class(
        add, ClassOptions((str(first),), json_file=book, resume=True), OFF, say=print
    )
    assert [e.submission for e in again.graded] == ["ann", "dan"]
    assert [e.score for e in again.grade().entries] == [1.0, 1.0, 1.0]
    other = tmp_path / "other"  # another class, the same gradebook path
    other.mkdir()
    for name, text in {"ann": RIGHT, "eve": WRONG}.items():
        (other / f"{name}.py").write_text(text)
    theirs = start_class(
        add, ClassOptions((str(other),), json_file=book, resume=True), OFF, say=print
    )
    assert theirs.graded == ()  # not one row of the first class
    assert [(e.submission, e.score) for e in theirs.grade().entries] == [("ann", 1.0), ("eve", 0.0)]
