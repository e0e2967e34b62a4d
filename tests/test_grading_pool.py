"""The grading loop's pool of case-runs: how many run at once, when a class's row is done, and
what Ctrl-C keeps. Real runs of the fixture course's ``add``; a test's runner wraps the
sandbox's only to hold a run until the moment it asserts on."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import PlanFactory

from grader.model.spec import Exercise
from grader.running import compiling
from grader.running.grading import (
    MAX_EARLY,
    EarlyPlaces,
    Graded,
    Interrupted,
    early_cases,
    grade_submissions,
)
from grader.running.plan import Plan, prepare
from grader.running.submissions import read
from grader.sandbox import Sandbox, SandboxMode

RIGHT = "import sys\nprint(sum(int(x) for x in sys.stdin.readline().split()))\n"
SLOW = "import time\ntime.sleep(60)\n"
HOLD_S = 10.0  # how long a held run waits for what the test awaits: never, unless it is broken


def _script(tmp_path: Path, name: str, text: str = RIGHT) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _case_run(argv: Sequence[str], kwargs: dict[str, Any], name: str) -> bool:
    """Whether this run is one of ``name``'s case-runs (not its compile check)."""
    return Path(argv[1]).name == name and kwargs.get("source") != compiling.PROGRAM


def test_jobs_2_runs_two_submissions_cases_at_once(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    """--jobs 2 with two submissions of one case each: both case-runs are in progress at once
    (each waits here for the other), not one submission after the other."""
    plan = plan_of(add, jobs=2)
    plan = replace(plan, cases=plan.cases[:1])
    both = threading.Barrier(2, timeout=HOLD_S)

    def meeting(argv: Sequence[str], **kwargs: Any) -> Any:
        if kwargs.get("source") != compiling.PROGRAM:
            both.wait()
        return plan.runner(argv, **kwargs)

    subs = [read(_script(tmp_path, name)) for name in ("a.py", "b.py")]
    graded = grade_submissions(replace(plan, runner=meeting), subs)
    assert [g.report.passed if g.report else None for g in graded] == [1, 1]


def test_a_class_row_is_done_when_its_own_cases_are(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    """In a class, a row is done as soon as its submission's cases are: the slow case of the
    submission before it (held until the other row is done) holds back only its own row."""
    plan = plan_of(add, jobs=4)
    held = plan.cases[1]
    released = threading.Event()

    def holding(argv: Sequence[str], **kwargs: Any) -> Any:
        if _case_run(argv, kwargs, "slow.py") and kwargs["stdin"] == held.input:
            released.wait(HOLD_S)
        return plan.runner(argv, **kwargs)

    done: list[str] = []

    def on_done(graded: Graded) -> None:
        done.append(graded.submission.name)
        released.set()

    subs = [read(_script(tmp_path, "slow.py"), "slow"), read(_script(tmp_path, "fast.py"), "fast")]
    graded = grade_submissions(
        replace(plan, runner=holding), subs, in_case_order=False, on_done=on_done
    )
    assert done == ["fast", "slow"]
    assert [g.report.passed if g.report else None for g in graded] == [4, 4]


def test_ctrl_c_keeps_each_submission_whose_runs_all_ended(add: Exercise, tmp_path: Path) -> None:
    """Ctrl-C while the loop reports ``a`` (its cases all done, its report not yet made) and
    ``b``'s first case runs: ``z`` and ``a`` are kept, ``b`` is not; ``b``'s run has ended when
    ``Interrupted`` is raised, and nothing queued (``d``) started after it."""
    # a sandbox of its own: cancel() refuses every later run of the one it is called on
    plan = prepare(add, sandbox=Sandbox.create(SandboxMode.AUTO), jobs=1)
    b_runs = threading.Event()
    interrupted = threading.Event()
    after: list[str] = []  # the scripts of the runs begun after Ctrl-C
    inside = 0
    lock = threading.Lock()

    def watched(argv: Sequence[str], **kwargs: Any) -> Any:
        nonlocal inside
        if interrupted.is_set():
            after.append(Path(argv[1]).name)
        with lock:
            inside += 1
        if _case_run(argv, kwargs, "b.py"):
            b_runs.set()
        try:
            return plan.runner(argv, **kwargs)
        finally:
            if interrupted.is_set():
                time.sleep(0.2)  # a run Ctrl-C ended takes a moment more to be gone
            with lock:
                inside -= 1

    heard: list[str] = []

    def on_case(sub: Any, case: Any) -> None:
        heard.append(sub.name)
        if heard.count("a") == len(plan.cases):
            assert b_runs.wait(HOLD_S)  # jobs=1: a's runs are over, b's first case sleeps
            interrupted.set()
            raise KeyboardInterrupt  # where Ctrl-C reaches the grader: its main thread

    scripts = [("z", RIGHT), ("a", RIGHT), ("b", SLOW), ("d", RIGHT)]
    subs = [read(_script(tmp_path, f"{name}.py", text), name) for name, text in scripts]
    with pytest.raises(Interrupted) as caught:
        grade_submissions(replace(plan, runner=watched), subs, on_case=on_case)
    assert inside == 0
    assert after == []
    kept = caught.value.graded
    assert [(g.submission.name, g.report.passed if g.report else None) for g in kept] == [
        ("z", 4),
        ("a", 4),
    ]


def _flooding(argv: Sequence[str], **kwargs: Any) -> Any:
    """A run that printed 1 MB on each stream, as a flooding student's would (the compile
    check passes): no process, so that only the grader's own memory is measured."""
    from grader.judging.runs import RunResult

    if kwargs.get("source") == compiling.PROGRAM:
        return RunResult(0, None, 0.01, b"", b"")
    return RunResult(1, None, 0.01, b"x" * (1 << 20), b"y" * (1 << 20))


def _peak_of_a_class(plan: Any, tmp_path: Path, size: int) -> int:
    import tracemalloc

    from grader.running.batch import grade_batch

    subs = [read(_script(tmp_path, f"s{i}.py"), f"s{i}") for i in range(size)]
    tracemalloc.start()
    try:
        book = grade_batch(plan, subs)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(book.entries) == size and all(e.score == 0 for e in book.entries)
    return peak


def test_a_class_holds_what_is_in_flight_not_the_class(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    """Issue 38, finding 6: a batch kept every submission's raw outputs until its end (six
    students flooding 4 MB + 4 MB a case took the grader to ~1 GB). Its memory is what the
    runs in flight hold, whatever the size of the class."""
    plan = replace(plan_of(add, jobs=2), runner=_flooding)
    few, many = _peak_of_a_class(plan, tmp_path, 4), _peak_of_a_class(plan, tmp_path, 16)
    # 12 students more, of 4 cases at 2 MB each: 96 MB more if the class is held (~146 MB more
    # measured), a few MB at most when only what is in flight is (the pool's threads may run
    # ahead of the loop that takes their results, by a margin the bound leaves them)
    assert many < few + (64 << 20), (few >> 20, many >> 20)


@pytest.mark.parametrize(("jobs", "early"), [(1, 0), (2, 1), (3, 2), (8, MAX_EARLY)])
def test_few_cases_run_beside_the_compile_check(jobs: int, early: int) -> None:
    """The workers the check leaves free, at most MAX_EARLY: with one, it runs alone."""
    assert early_cases(jobs) == early


def test_the_places_beside_the_compile_check_are_few_and_only_before_it_ends() -> None:
    compiled: Future[str] = Future()
    places = EarlyPlaces(2)
    assert [places.take(compiled) for _ in range(3)] == [True, True, False]
    ended: Future[str] = Future()
    ended.set_result("")
    assert not EarlyPlaces(2).take(ended)  # once it has ended, a case simply runs
    assert not EarlyPlaces(0).take(compiled)


def _holding_the_compile_check(
    plan: Plan, name: str
) -> tuple[Callable[..., Any], list[int], list[int]]:
    """A runner that holds ``name``'s compile check until as many of its case-runs as may run
    beside it have started; it says how many had then (``seen``) and counts them all."""
    started: list[int] = []  # one per case-run of name's
    seen: list[int] = []
    lock = threading.Condition()
    early = early_cases(plan.jobs)

    def runner(argv: Sequence[str], **kwargs: Any) -> Any:
        if _case_run(argv, kwargs, name):
            with lock:
                started.append(1)
                lock.notify_all()
        elif kwargs.get("source") == compiling.PROGRAM:
            with lock:
                assert lock.wait_for(lambda: len(started) >= early, HOLD_S)
                seen.append(len(started))
        return plan.runner(argv, **kwargs)

    return runner, started, seen


def test_a_script_that_does_not_compile_costs_only_the_early_runs(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    """A compile bomb's cases would each take the whole time limit: the ones that ran beside
    the check are all it costs (the others wait for the check and never run), and none of
    their outcomes counts."""
    plan = plan_of(add, jobs=3)
    runner, started, seen = _holding_the_compile_check(plan, "broken.py")
    sub = read(_script(tmp_path, "broken.py", "print(1 +\n"))
    (graded,) = grade_submissions(replace(plan, runner=runner), [sub])
    assert len(plan.cases) > early_cases(plan.jobs) > 0
    assert seen == [early_cases(plan.jobs)]
    assert len(started) == early_cases(plan.jobs)
    assert graded.report is not None
    assert graded.report.compile_error
    assert all(o.message.startswith("does not compile") for o in graded.report.outcomes)


def test_cases_run_beside_the_compile_check_count_once_it_compiles(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    """The early runs' outcomes are the cases' own once the script compiles: each case runs
    once, the early ones too."""
    plan = plan_of(add, jobs=2)
    runner, started, seen = _holding_the_compile_check(plan, "right.py")
    (graded,) = grade_submissions(
        replace(plan, runner=runner), [read(_script(tmp_path, "right.py"))]
    )
    assert seen == [1]
    assert len(started) == len(plan.cases)
    assert graded.report is not None
    assert graded.report.passed == len(plan.cases)


def test_a_real_compile_bomb_costs_at_most_the_early_runs(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    """A script whose compiling takes longer than the time limit (20,000 keyword arguments,
    ~4 s, under 0.3 s): each of its case-runs would take that limit too; at most the early
    ones run, whatever the machine's speed, and every case says it does not compile."""
    plan = plan_of(add, jobs=3, time_s=0.3)
    runs: list[str] = []

    def counted(argv: Sequence[str], **kwargs: Any) -> Any:
        if _case_run(argv, kwargs, "bomb.py"):
            runs.append(argv[1])
        return plan.runner(argv, **kwargs)

    bomb = "f(" + ", ".join(f"k{i}=1" for i in range(20000)) + ")\n"
    (graded,) = grade_submissions(
        replace(plan, runner=counted), [read(_script(tmp_path, "bomb.py", bomb))]
    )
    assert len(runs) <= early_cases(plan.jobs) < len(plan.cases)
    assert graded.report is not None
    assert "the compiler took more than 0.3 s" in graded.report.compile_error
    assert all(o.message.startswith("does not compile") for o in graded.report.outcomes)


def _sized(plan: Plan) -> Plan:
    """Three cases of ``add`` with inputs of other lengths (a comment line: the same sum)."""
    base = plan.cases[0]
    cases = tuple(
        replace(base, name=name, input=base.input + b"#" * pad + b"\n")
        for name, pad in (("short", 0), ("long", 400), ("middle", 40))
    )
    return replace(plan, cases=cases, jobs=1)


def _started_inputs(plan: Plan) -> tuple[Plan, list[bytes]]:
    started: list[bytes] = []

    def recording(argv: Sequence[str], **kwargs: Any) -> Any:
        if kwargs.get("source") != compiling.PROGRAM:
            started.append(kwargs["stdin"])
        return plan.runner(argv, **kwargs)

    return replace(plan, runner=recording), started


def test_the_longest_input_starts_first_and_reports_keep_case_order(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    """One worker: the cases start longest input first, so a long run is not the one left
    alone at the end; the report is in case order all the same."""
    plan, started = _started_inputs(_sized(plan_of(add, jobs=1)))
    (graded,) = grade_submissions(plan, [read(_script(tmp_path, "right.py"))])
    by_input = {case.input: case.name for case in plan.cases}
    assert [by_input[given] for given in started] == ["long", "middle", "short"]
    assert graded.report is not None
    assert [o.case.name for o in graded.report.outcomes] == ["short", "long", "middle"]
    assert graded.report.passed == 3


@pytest.mark.parametrize(
    "rule",
    [{"stop_after_failure": True}, {"skip_after_timeout": True}, {"max_time_per_submission": 60}],
)
def test_cases_start_in_case_order_where_a_rule_reads_it(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path, rule: dict[str, Any]
) -> None:
    """Which cases run after a failure or a time-out depends on the cases before them."""
    plan, started = _started_inputs(replace(_sized(plan_of(add, jobs=1)), **rule))
    grade_submissions(plan, [read(_script(tmp_path, "right.py"))])
    by_input = {case.input: case.name for case in plan.cases}
    assert [by_input[given] for given in started] == ["short", "long", "middle"]
