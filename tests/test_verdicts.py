"""Every verdict, produced by a real script in a real subprocess through the real runner."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import ONE_QUANTIZE_CASE, PlanFactory, script

from grader.judging.records import CaseOutcome, Verdict
from grader.model.spec import Exercise
from grader.running.compiling import PROGRAM
from grader.running.grading import grade
from grader.running.plan import Plan
from grader.sandbox import LimitHit, Limits, RunResult, Sandbox


@pytest.fixture
def sample(quantize: Exercise, plan_of: PlanFactory) -> Plan:
    """Quantize's lesson sample, from a fixture folder (a teacher's edit cannot change it)."""
    return plan_of(quantize, cases_dir=ONE_QUANTIZE_CASE)


def only(plan: Plan, path: Path | str) -> CaseOutcome:
    (outcome,) = grade(plan, script(str(path))).outcomes
    return outcome


def verdict_of(plan: Plan, name: str) -> tuple[Verdict, str]:
    outcome = only(plan, name)
    return outcome.verdict, outcome.message


# the default suite grades the public cases; the slow pass every case, those at the statement's
# maximum size included (seconds each): a case a teacher adds never slows the default suite
PUBLIC_OR_EVERY = pytest.mark.parametrize(
    "every", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["public", "every"]
)


@PUBLIC_OR_EVERY
def test_correct_student_solutions_pass_every_case(
    quantize: Exercise, specdec: Exercise, plan_of: PlanFactory, every: bool
) -> None:
    for exercise, name in ((quantize, "quantize_student.py"), (specdec, "specdec_student.py")):
        plan = plan_of(exercise)
        if not every:
            plan = replace(plan, cases=tuple(c for c in plan.cases if not c.secret))
        report = grade(plan, script(name))
        failed = [(c.case.name, c.message) for c in report.outcomes if not c.passed]
        assert failed == [], name
        assert report.exit_code == 0


def test_wrong_answer_names_the_first_mismatch(sample: Plan, tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.py"
    wrong.write_text(
        'print("group 1: scale 0.06299 q 2 -8 5 2 127")\nprint("mean error: 0.00639")\n'
    )
    verdict, message = verdict_of(sample, str(wrong))
    assert verdict is Verdict.WRONG_ANSWER
    assert message == "line 1, token 9: expected '1', got '2'"


def test_runtime_error_even_when_the_output_was_right(sample: Plan) -> None:
    verdict, message = verdict_of(sample, "crash_after_output.py")
    assert verdict is Verdict.RUNTIME_ERROR
    assert "RuntimeError: boom after the answer" in message
    assert "the output itself was right" in message


def test_killed_by_a_signal_is_a_runtime_error_with_no_exit_code(sample: Plan) -> None:
    outcome = only(sample, "killed_by_signal.py")
    assert outcome.verdict is Verdict.RUNTIME_ERROR
    assert outcome.exit_code is None
    assert "SIGSEGV" in outcome.message


def test_timeout_kills_a_sleeper_that_ignores_sigterm_and_says_it_waited(sample: Plan) -> None:
    started = time.monotonic()
    outcome = only(replace(sample, limits=Limits(time_s=0.5)), "sleep_ignoring_sigterm.py")
    assert outcome.verdict is Verdict.TIMEOUT
    assert outcome.exit_code is None
    assert time.monotonic() - started < 30  # a generous bound: it must not wait for the sleep
    # its CPU time is read before its processes are killed unreaped (cgroup v1 keeps none,
    # and an ordinary user has no cgroup at all)
    assert "(it was waiting, not computing: 0.0" in outcome.message, outcome.message


def test_a_cpu_loop_times_out_computing_all_along(sample: Plan) -> None:
    # a limit long enough that a loaded machine still gives the loop half of it
    verdict, message = verdict_of(replace(sample, limits=Limits(time_s=1.2)), "cpu_loop.py")
    assert verdict is Verdict.TIMEOUT
    assert "(computing all along: an endless loop, or too slow an approach)" in message, message


def test_cpu_time_limit_is_its_own_verdict(sample: Plan) -> None:
    """SIGXCPU (the CPU-time rlimit) is told apart from the wall clock and from a crash."""
    verdict, message = verdict_of(replace(sample, limits=Limits(time_s=20)), "cpu_time_limit.py")
    assert verdict is Verdict.TIMEOUT
    assert message.startswith("used more than 20 s of CPU time; stopped after printing 0 of the")
    assert message.endswith("(computing all along: an endless loop, or too slow an approach)")


@pytest.mark.parametrize("name", ["alloc_4gb.py", "numpy_alloc_4gb.py"])
def test_memory_limit(sample: Plan, name: str) -> None:
    verdict, message = verdict_of(sample, name)
    assert verdict is Verdict.MEMORY_LIMIT
    assert "MemoryError" in message


@pytest.mark.parametrize("name", ["flood_stdout.py", "flood_stderr.py"])
def test_output_limit_stops_a_gigabyte_flood(sample: Plan, name: str) -> None:
    verdict, _ = verdict_of(sample, name)
    assert verdict is Verdict.OUTPUT_LIMIT


def test_output_exactly_at_the_limit_is_not_over_it(sample: Plan) -> None:
    verdict, _ = verdict_of(sample, "exact_output_at_limit.py")
    assert verdict is Verdict.WRONG_ANSWER


def test_grader_error_when_the_interpreter_cannot_run(sample: Plan) -> None:
    report = grade(replace(sample, python="/nonexistent/python"), script("quantize_student.py"))
    assert {c.verdict for c in report.outcomes} == {Verdict.GRADER_ERROR}
    assert report.exit_code == 4


def test_a_grader_error_in_one_case_does_not_stop_the_others(
    add: Exercise, plan_of: PlanFactory, sandbox: Sandbox
) -> None:
    plan = plan_of(add, jobs=1)
    box = plan.sandbox
    assert box is not None
    first = plan.cases[0].input

    def flaky(
        argv: Sequence[str], *, stdin: bytes, limits: Limits, source: bytes | None = None, **_: Any
    ) -> RunResult:
        if source != PROGRAM and stdin == first:  # its run, not the compile check
            raise OSError("disk on fire")
        return box.run(argv, stdin=stdin, limits=limits, source=source)

    report = grade(replace(plan, runner=flaky), add.root.material / "add" / "solution.py")
    assert report.outcomes[0].verdict is Verdict.GRADER_ERROR
    assert "disk on fire" in report.outcomes[0].message
    assert all(c.passed for c in report.outcomes[1:])


def test_a_grader_error_beside_a_failure_exits_4(add: Exercise, plan_of: PlanFactory) -> None:
    """A grader fault outranks the student's failure: the result is not known, CI must not
    record a mark."""
    plan = plan_of(add, jobs=1)
    box = plan.sandbox
    assert box is not None
    calls: list[bytes] = []

    def first_breaks(
        argv: Sequence[str], *, stdin: bytes, limits: Limits, source: bytes | None = None, **_: Any
    ) -> RunResult:
        if source != PROGRAM:  # the case-runs, not the compile check before them
            calls.append(stdin)
        if len(calls) == 1 and source != PROGRAM:
            raise OSError("disk on fire")
        return box.run(argv, stdin=stdin, limits=limits, source=source)

    wrong = add.root.material / "add" / "wrong" / "drops_last_number.py"
    report = grade(replace(plan, runner=first_breaks), wrong)
    verdicts = {c.verdict for c in report.outcomes}
    assert {Verdict.GRADER_ERROR, Verdict.WRONG_ANSWER} <= verdicts
    assert report.exit_code == 4


def test_closed_stdout_is_a_wrong_answer_not_a_grader_crash(sample: Plan) -> None:
    verdict, message = verdict_of(sample, "closed_stdout.py")
    assert verdict is Verdict.WRONG_ANSWER
    assert "missing line" in message


def test_invalid_utf8_is_decoded_with_replacement(sample: Plan) -> None:
    outcome = only(sample, "invalid_utf8.py")
    assert outcome.verdict is Verdict.WRONG_ANSWER
    assert "\ufffd" in outcome.stdout


def test_results_keep_case_order_with_parallel_jobs(add: Exercise, plan_of: PlanFactory) -> None:
    plan = plan_of(add, jobs=4)
    report = grade(plan, add.root.material / "add" / "solution.py")
    assert [c.case.name for c in report.outcomes] == [c.name for c in plan.cases]
    assert [c.name for c in plan.cases] == sorted(c.name for c in plan.cases)


def test_the_submission_sees_only_an_allow_listed_environment(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI_JOB_TOKEN", "secret")
    result = sandbox.run([sys.executable, str(script("reads_env.py"))], stdin=b"", limits=Limits())
    names = set(result.stdout.decode().split())
    assert "CI_JOB_TOKEN" not in names
    assert "PATH" in names and "HOME" in names  # the script ran and printed its environment
    assert names <= {
        "PATH",
        "HOME",
        "TMPDIR",
        "LANG",
        "LC_ALL",
        "PYTHONUTF8",
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONHASHSEED",
        "LD_LIBRARY_PATH",  # only where the grader has one (a shared libpython needs it)
        "OPENBLAS_NUM_THREADS",
        "OMP_NUM_THREADS",
        "MKL_NUM_THREADS",
        "NUMEXPR_NUM_THREADS",
        "VECLIB_MAXIMUM_THREADS",
    }


def test_each_run_gets_a_fresh_working_directory(sandbox: Sandbox, tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("import os\nprint(os.getcwd(), sorted(os.listdir()))\nopen('mark', 'w')\n")
    first = sandbox.run([sys.executable, str(probe)], stdin=b"", limits=Limits())
    second = sandbox.run([sys.executable, str(probe)], stdin=b"", limits=Limits())
    cwd1, listing1 = first.stdout.decode().split(" ", 1)
    cwd2, listing2 = second.stdout.decode().split(" ", 1)
    assert cwd1 != cwd2
    assert listing1.strip() == listing2.strip() == "[]"
    assert not os.path.exists(cwd1)  # removed after the run


def test_sandbox_reports_which_limit_it_hit(sandbox: Sandbox) -> None:
    result = sandbox.run(
        [sys.executable, str(script("flood_stdout.py"))], stdin=b"", limits=Limits(output_kb=64)
    )
    assert result.limit_hit is LimitHit.OUTPUT
    assert len(result.stdout) == 64 * 1024  # captured output is capped, not the whole flood


def test_signals_reach_the_main_thread_and_runs_start_with_none_blocked(
    add: Exercise, plan_of: PlanFactory, tmp_path: Path
) -> None:
    """Ctrl-C delivered to a worker thread left the main thread asleep on a lock (a batch hung
    under load): workers block the signals, and the runs they start must not inherit that."""
    plan = plan_of(add, jobs=2)
    box = plan.sandbox
    assert box is not None
    masks: list[set[int]] = []

    def recording(
        argv: Sequence[str], *, stdin: bytes, limits: Limits, source: bytes | None = None, **_: Any
    ) -> RunResult:
        masks.append(set(signal.pthread_sigmask(signal.SIG_BLOCK, [])))
        return box.run(argv, stdin=stdin, limits=limits, source=source)

    mask_of_run = tmp_path / "mask.py"
    mask_of_run.write_text("import signal\nprint(sorted(signal.pthread_sigmask(0, [])))\n")
    report = grade(replace(plan, runner=recording), mask_of_run)
    assert all({signal.SIGINT, signal.SIGTERM} <= mask for mask in masks) and masks
    assert {o.stdout.strip() for o in report.outcomes} == {"[]"}
