"""The one grading loop: what check, batch, verify and run all go through. Real runs of the
fixture course's ``add`` (3 public cases, 1 hidden)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import COURSE, PlanFactory, comparing

from grader.cli import cli
from grader.judging.errors import InternalError, MachineBusy, SubmissionError
from grader.judging.printed import path_text
from grader.judging.records import Case, CaseFeedback, Course, Verdict, Visibility
from grader.judging.timing import BUSY_RETRIES
from grader.model.cases import case_files, public_folder
from grader.model.spec import Exercise
from grader.running import compiling, grading, submissions
from grader.running.batch import grade_batch
from grader.running.grading import grade, grade_many, grade_submissions, run_case
from grader.running.submissions import Submission, read

RIGHT = "import sys\nprint(sum(int(x) for x in sys.stdin.readline().split()))\n"
WRONG = "print(0)\n"


def _script(tmp_path: Path, text: str, name: str = "s.py") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_check_reads_and_compiles_the_submission_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It read it three times and compiled it twice: the text graded could differ from the
    text checked, and a compile bomb cost twice."""
    reads: list[Path] = []
    compiles: list[bytes] = []
    real_read, real_compile = submissions.read_submission, compiling.compile_error

    def counted_read(path: Path, limit: int = 1 << 20) -> tuple[bytes, str | None]:
        reads.append(path)
        return real_read(path, limit)

    def counted_compile(runner: Any, python: str, shown: str, text: bytes, limits: Any) -> str:
        compiles.append(text)
        return real_compile(runner, python, shown, text, limits)

    monkeypatch.setattr(submissions, "read_submission", counted_read)
    monkeypatch.setattr(grading, "compile_error", counted_compile)
    script = _script(tmp_path, RIGHT)
    result = CliRunner().invoke(cli, ["add", str(script), "--root", str(COURSE)])
    assert result.exit_code == 0, result.output
    assert (len(reads), compiles) == (1, [RIGHT.encode()]), (reads, compiles)


MEASURED = """
import resource, runpy, sys
sys.argv = ["grade", *sys.argv[1:]]
try:
    runpy.run_module("grader", run_name="__main__")
except SystemExit as exc:
    code = exc.code
sys.stderr.write(f"\\nMAXRSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n")
sys.exit(code)
"""


def _grade_measured(*args: str) -> tuple[int, dict[str, Any], int]:
    """``grade ARGS --format json`` in a process of its own: its exit code, its report, and
    its own peak memory in KB (its runs' not included)."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, *args, "--root", str(COURSE), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    peak = int(done.stderr.rsplit("MAXRSS ", 1)[1])
    return done.returncode, json.loads(done.stdout), peak


CAPTURES = ", ".join(f"a{i}" for i in range(6000))
MATCH_BOMB = f"match x:\n    case C({CAPTURES}):\n        pass\n"  # ~5 GB unbounded on 3.13


@pytest.mark.parametrize(
    ("bomb", "options", "said"),
    [
        pytest.param(  # CPython 3.11+ compiles a class pattern's captures in O(N**2) memory
            MATCH_BOMB,
            (),
            "memory",
            marks=[
                pytest.mark.skipif(sys.version_info < (3, 11), reason="3.10 compiles it fast"),
                pytest.mark.slow,  # 2 s to reach the memory limit; the time bomb stays default
            ],
        ),
        (  # keyword arguments: ~4 s of compiling, under a 0.3 s limit
            "f(" + ", ".join(f"k{i}=1" for i in range(20000)) + ")\n",
            ("--timeout", "0.3"),
            "the compiler took more than 0.3 s",
        ),
    ],
    ids=["memory", "time"],
)
def test_a_compile_bomb_is_the_students_mistake_not_the_graders(
    tmp_path: Path, bomb: str, options: tuple[str, ...], said: str
) -> None:
    """The grader compiled the submission in its own process, without limits: a 47 KB file
    made it allocate gigabytes, a 610 KB one stalled it for minutes, before any case ran."""
    code, report, peak_kb = _grade_measured("add", str(_script(tmp_path, bomb)), *options)
    assert code == 1, report
    assert {c["status"] for c in report["cases"]} == {"runtime_error"}
    assert all(said in c["message"] for c in report["cases"] if c["message"] != "hidden case")
    assert peak_kb < 300 * 1024, peak_kb  # the grader's own memory: the bomb went off elsewhere


def test_listeners_hear_only_what_the_student_may_see(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    heard: list[CaseFeedback] = []
    report = grade(plan_of(add, jobs=2), _script(tmp_path, WRONG), on_case=heard.append)
    assert [c.name for c in heard] == [o.case.name for o in report.outcomes]  # case order
    assert all(isinstance(c, CaseFeedback) for c in heard)
    (hidden,) = [c for c in heard if c.visibility is Visibility.HIDDEN]
    assert (hidden.input, hidden.stdout, hidden.expected, hidden.hint) == ("", "", "", None)
    assert hidden.verdict is Verdict.WRONG_ANSWER


def test_a_compile_error_is_said_once_and_no_case_hint_follows(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    started: list[str] = []
    heard: list[CaseFeedback] = []
    broken = _script(tmp_path, "print(1\n")
    report = grade(plan_of(add), broken, on_start=started.append, on_case=heard.append)
    assert len(started) == 1 and "SyntaxError" in started[0]
    assert started[0].startswith(f'  File "{broken.resolve()}", line 1\n')  # the file they wrote
    assert report.compile_error == started[0]
    assert all(c.verdict is Verdict.RUNTIME_ERROR and c.hint is None for c in heard)
    assert all(c.hint is None for c in report.feedback().cases)
    assert any(o.case.hint for o in report.outcomes)  # the cases have hints: they are dropped


def test_x_is_one_rule_in_either_order(add: Exercise, plan_of: PlanFactory, tmp_path: Path) -> None:
    """-x skips every case after the first failure, in a report printed as it goes and in a
    class graded as submissions complete, with the same words."""
    crashes = _script(tmp_path, "import sys\nn = sys.stdin.read()\nraise SystemExit(1)\n")
    plan = plan_of(add, jobs=4, stop_after_failure=True)
    ordered = grade(plan, crashes)
    (row,) = grade_batch(plan, [read(crashes, "c")]).entries
    for cases in (ordered.feedback().cases, row.feedback.cases if row.feedback else ()):
        verdicts = [c.verdict for c in cases]
        assert verdicts == [Verdict.RUNTIME_ERROR, *[Verdict.SKIPPED] * (len(verdicts) - 1)]
        shown = {c.message for c in cases[1:] if c.details_shown}
        assert shown == {"not run: case 01-sample failed first (-x)"}


def test_results_keep_the_order_given_whatever_finishes_first(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    slow = _script(tmp_path, "import time\ntime.sleep(0.3)\n" + RIGHT, "slow.py")
    fast = _script(tmp_path, RIGHT, "fast.py")
    gone = Submission("gone", tmp_path / "gone.py", "does not exist")
    done: list[str] = []
    graded = grade_submissions(
        plan_of(add, jobs=4),
        [read(slow, "slow"), gone, read(fast, "fast")],
        in_case_order=False,
        on_done=lambda g: done.append(g.submission.name),
    )
    assert [g.submission.name for g in graded] == ["slow", "gone", "fast"]
    assert graded[1].report is None
    assert done.index("gone") < done.index("slow")  # a row without runs is done at once
    assert sorted(done) == ["fast", "gone", "slow"]


def test_the_text_checked_is_the_text_graded(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    script = _script(tmp_path, RIGHT)
    checked = read(script)
    script.write_text(WRONG)  # swapped after the check
    assert grade(plan_of(add), checked).passed == 4


def test_known_mistakes_are_the_exercises_own_cases_only(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    """A --cases folder with a case of the same name is another case: the exercise's known
    mistakes for it say nothing of it."""
    wrong = add.root.material / "add" / "wrong" / "drops_last_number.py"
    own = grade(plan_of(add), wrong)
    named = {o.case.name for o in own.outcomes if o.diagnosis is not None}
    assert "01-sample" in named
    folder = tmp_path / "ci"
    folder.mkdir()
    for path in case_files(public_folder(add), "01-sample"):
        shutil.copy(path, folder / path.name)
    elsewhere = grade(plan_of(add, cases_dir=folder), wrong)
    assert [o.diagnosis for o in elsewhere.outcomes] == [None]
    assert elsewhere.outcomes[0].verdict is Verdict.WRONG_ANSWER


NO_ROOM = "No space left on device"


@pytest.mark.parametrize(
    ("fails", "raised", "said"),
    [
        (
            "case",
            InternalError("the sandbox did not start: no room"),
            "the sandbox did not start: no room",
        ),
        # any other exception is a bug of the grader's: named by its type
        ("case", OSError(28, NO_ROOM), f"OSError: [Errno 28] {NO_ROOM}"),
        ("compile", InternalError("no room"), "the compile check failed: no room"),
        (
            "compile",
            OSError(28, NO_ROOM),
            f"the compile check failed: OSError: [Errno 28] {NO_ROOM}",
        ),
    ],
)
def test_a_run_the_grader_cannot_make_is_each_cases_grader_error(
    add: Exercise,
    plan_of: PlanFactory,
    tmp_path: Path,
    fails: str,
    raised: Exception,
    said: str,
) -> None:
    """The sandbox failing on a case-run, or on the compile check before any case, is the
    grader's error on every case it touches, each case still its own: never the student's."""
    plan = plan_of(add)

    def broken(argv: Sequence[str], **kwargs: Any) -> Any:
        if (kwargs.get("source") == compiling.PROGRAM) == (fails == "compile"):
            raise raised
        return plan.runner(argv, **kwargs)

    report = grade(replace(plan, runner=broken), _script(tmp_path, RIGHT))
    assert [o.case for o in report.outcomes] == list(plan.cases)
    assert {(o.verdict, o.message) for o in report.outcomes} == {(Verdict.GRADER_ERROR, said)}
    assert report.exit_code == 4 and report.compile_error == ""


@pytest.mark.parametrize(
    ("starved", "verdicts"),
    [
        (0, {Verdict.PASSED}),
        (1, {Verdict.PASSED}),  # queued again, alone: judged, never charged
        (BUSY_RETRIES, {Verdict.PASSED}),
        (BUSY_RETRIES + 1, {Verdict.GRADER_ERROR}),  # still starved: the machine's fault
    ],
)
def test_a_run_the_machine_starved_is_run_again_before_it_is_an_error(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path, starved: int, verdicts: set[Verdict]
) -> None:
    plan = plan_of(add)
    tries: dict[bytes, int] = {}
    guard = threading.Lock()

    def busy(argv: Sequence[str], **kwargs: Any) -> Any:
        if kwargs.get("source") != compiling.PROGRAM:
            with guard:
                tries[kwargs["stdin"]] = tries.get(kwargs["stdin"], 0) + 1
                if tries[kwargs["stdin"]] <= starved:
                    raise MachineBusy("this machine was too busy to give the run its 2 s")
        return plan.runner(argv, **kwargs)

    report = grade(replace(plan, runner=busy), _script(tmp_path, RIGHT))
    assert {o.verdict for o in report.outcomes} == verdicts
    assert set(tries.values()) == {min(starved, BUSY_RETRIES) + 1}
    if starved > BUSY_RETRIES:
        assert {o.message for o in report.outcomes} == {
            f"this machine was too busy to give the run its 2 s (run {BUSY_RETRIES + 1} "
            "times, the retries one at a time)"
        }


def test_a_comparator_given_is_the_one_that_judges(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    """``grade run`` judges a student's own input by the comparator it chose; without one, the
    exercise's (tokens: a leading space is no mistake) judges. Without the text the check
    read, the run reads the script itself."""
    plan = plan_of(add)
    case = plan.cases[0]  # 1 2 3: 6
    spaced = _script(tmp_path, "print(' 6')\n")
    text = spaced.read_bytes()
    assert run_case(plan, spaced, case, text=text).verdict is Verdict.PASSED
    assert run_case(plan, spaced, case).verdict is Verdict.PASSED
    exact = run_case(plan, spaced, case, text=text, comparator=comparing("exact"))
    assert (exact.verdict, exact.message) == (
        Verdict.WRONG_ANSWER,
        "line 1: expected '6', got ' 6'",
    )


def test_advice_reads_the_text_that_was_graded(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    """The advice that reads the source (one input() for an input of several lines) reads the
    text the check read, as the run did, not the file as it is now."""
    two_lines = Case("two-lines", b"1 2\n3\n", "6\n", "numbers on two lines")
    script = _script(tmp_path, "w = input().split()\nprint(int(w[0]) + int(w[1]))\n")
    checked = read(script)
    script.write_text("import sys\nprint(sum(int(x) for x in sys.stdin.read().split()) + 1)\n")
    (outcome,) = grade(plan_of(add, cases=(two_lines,)), checked).outcomes
    assert (outcome.verdict, outcome.stdout) == (Verdict.WRONG_ANSWER, "3\n")
    assert outcome.advice == (
        "input() reads one line, and this input has 2: call input() once per line, or read "
        "them all with sys.stdin.read().split()"
    )


def test_the_plans_size_limit_holds_however_a_script_is_given(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    plan = plan_of(add, max_submission_bytes=2048)
    big = _script(tmp_path, RIGHT + "#" * 3000 + "\n")
    for entry in (lambda: grade(plan, big), lambda: grade_many(plan, [big])):
        with pytest.raises(
            SubmissionError, match=rf"^submission {re.escape(str(big))} is larger than 2 KiB$"
        ):
            entry()
    gone = Submission("gone", tmp_path / "gone.py", "does not exist")
    with pytest.raises(
        SubmissionError, match=rf"^submission {re.escape(str(gone.path))} does not exist$"
    ):
        grade(plan, gone)


def test_listeners_are_told_whose_case_it_is(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    plan = plan_of(add, jobs=4)
    a, b = _script(tmp_path, RIGHT, "a.py"), _script(tmp_path, "print(1\n", "b.py")
    started: list[tuple[str, bool]] = []
    heard: list[tuple[str, str]] = []
    grade_submissions(
        plan,
        [read(a, "a"), read(b, "b")],
        on_start=lambda sub, error: started.append((sub.name, "SyntaxError" in error)),
        on_case=lambda sub, case: heard.append((sub.name, case.name)),
    )
    assert started == [("a", False), ("b", True)]
    names = [c.name for c in plan.cases]
    assert heard == [("a", n) for n in names] + [("b", n) for n in names]


def _outcome(case: Any, verdict: Verdict, time_s: float = 0.5) -> Any:
    from grader.judging.records import CaseOutcome

    return CaseOutcome(case=case, verdict=verdict, message="", time_s=time_s)


def test_a_budget_table(add: Exercise, plan_of: PlanFactory) -> None:
    """What stops a submission's remaining cases: -x (only the cases after the first failure,
    in case order, whatever order they finish in), a time-out (with --skip-after-timeout),
    the seconds a submission may spend (with --max-time-per-submission)."""
    from grader.running.grading import Budget

    plan = plan_of(add)
    c = plan.cases
    free = Budget(plan)
    free.record(0, _outcome(c[0], Verdict.TIMEOUT, 100.0))
    free.record(1, _outcome(c[1], Verdict.WRONG_ANSWER))
    assert [free.refusal(i) for i in range(4)] == [None] * 4  # no limit asked for

    x = Budget(replace(plan, stop_after_failure=True))
    x.record(2, _outcome(c[2], Verdict.WRONG_ANSWER))
    x.record(1, _outcome(c[1], Verdict.RUNTIME_ERROR))  # an earlier case, finishing later
    x.record(0, _outcome(c[0], Verdict.PASSED))
    said = f"not run: case {c[1].name} failed first (-x)"
    assert [x.refusal(i) for i in range(4)] == [None, None, said, said]

    timed = Budget(replace(plan, skip_after_timeout=True))
    timed.record(0, _outcome(c[0], Verdict.PASSED))
    assert timed.refusal(3) is None
    timed.record(1, _outcome(c[1], Verdict.TIMEOUT))
    timed.record(2, _outcome(c[2], Verdict.TIMEOUT))
    assert timed.refusal(0) == timed.refusal(3) == f"not run: case {c[1].name} timed out"

    spent = Budget(replace(plan, max_time_per_submission=1.0))
    spent.record(0, _outcome(c[0], Verdict.PASSED, 0.6))
    assert spent.refusal(1) is None
    spent.record(1, _outcome(c[1], Verdict.PASSED, 0.4))
    assert spent.refusal(2) is None  # exactly the budget: not over it
    spent.record(2, _outcome(c[2], Verdict.PASSED, 0.01))
    assert spent.refusal(3) == "not run: the submission's 1 s were spent"


def test_a_report_names_everything_it_was_given(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    from datetime import datetime, timezone

    from grader.running.grading import report

    plan = plan_of(add)
    outcomes = [_outcome(case, Verdict.PASSED) for case in plan.cases]
    started = datetime(2026, 12, 1, 10, 0, 0, tzinfo=timezone.utc)
    made = report(plan, tmp_path / "s.py", outcomes, started, "SyntaxError: x\n")
    assert made.exercise == "add" and made.submission == str(tmp_path / "s.py")
    assert made.outcomes == tuple(outcomes) and made.compile_error == "SyntaxError: x\n"
    assert made.started_at == "2026-12-01T10:00:00+00:00" and made.hostname
    assert made.course == Course(add.root.name, path_text(add.root.path), add.root.kind.value)
    assert report(plan, tmp_path / "s.py", outcomes, started).compile_error == ""


def test_jobs_1_runs_one_case_at_a_time(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    """--jobs 1: a case-run starts only after the one before it ended."""
    import threading

    plan = plan_of(add, jobs=1)
    inside, most = 0, 0
    lock = threading.Lock()

    def counting(argv: Sequence[str], **kwargs: Any) -> Any:
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
        try:
            return plan.runner(argv, **kwargs)
        finally:
            with lock:
                inside -= 1

    report = grade(replace(plan, runner=counting), _script(tmp_path, RIGHT))
    assert report.passed == 4 and most == 1


def test_grade_many_keeps_every_report_in_order(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    scripts = [_script(tmp_path, RIGHT, "a.py"), _script(tmp_path, WRONG, "b.py")]
    heard: list[CaseFeedback] = []
    reports = grade_many(plan_of(add, jobs=4), scripts, on_case=heard.append)
    assert [r.submission for r in reports] == [str(s) for s in scripts]
    assert [r.passed for r in reports] == [4, 0]
    assert heard == [c for r in reports for c in r.feedback().cases]  # each case, in order
    assert all(r.started_at.endswith("+00:00") for r in reports)  # UTC: a class's is one clock


def test_a_crash_names_the_students_own_file() -> None:
    """The run reads the grader's copy, but its traceback names the file the student wrote, at
    its line: what they open to fix it (mutmut: the path given to the run went unchecked)."""
    from click.testing import CliRunner
    from conftest import COURSE

    from grader.cli import cli

    with tempfile.TemporaryDirectory(dir="/tmp") as short:  # a traceback line is cut at 100
        mine = Path(short) / "my_quantize.py"
        mine.write_text("x = 1\nraise ValueError('boom')\n")
        argv = ["add", str(mine), "--root", str(COURSE), "--format", "plain", "-k", "01"]
        plain = CliRunner().invoke(cli, argv, catch_exceptions=False).stdout
    assert "runtime_error" in plain
    assert f'File "{mine}", line 2, in <module>' in plain
