"""Every verdict, produced by a real script in a real subprocess through the real runner."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from conftest import script

from grader.cases import Case
from grader.grading import exercise_cases, grade
from grader.report import Verdict
from grader.sandbox import LimitHit, Limits, Sandbox
from grader.spec import Exercise


def first_case(exercise: Exercise) -> list[Case]:
    return [exercise_cases(exercise)[0]]


def verdict_of(exercise: Exercise, name: str, **kwargs: object) -> tuple[Verdict, str]:
    report = grade(exercise, script(name), cases=first_case(exercise), **kwargs)  # type: ignore[arg-type]
    (outcome,) = report.cases
    return outcome.verdict, outcome.message


def test_correct_student_solutions_pass_every_case(quantize: Exercise, specdec: Exercise) -> None:
    for exercise, name in ((quantize, "quantize_student.py"), (specdec, "specdec_student.py")):
        report = grade(exercise, script(name))
        failed = [(c.name, c.message) for c in report.cases if not c.passed]
        assert failed == [], name
        assert report.exit_code == 0


def test_wrong_answer_names_the_first_mismatch(quantize: Exercise, tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.py"
    wrong.write_text(
        'print("group 1: scale 0.06299 q 2 -8 5 2 127")\nprint("mean error: 0.00639")\n'
    )
    verdict, message = verdict_of(quantize, str(wrong))
    assert verdict is Verdict.WRONG_ANSWER
    assert message == "line 1, token 9: expected '1', got '2'"


def test_runtime_error_even_when_the_output_was_right(quantize: Exercise) -> None:
    verdict, message = verdict_of(quantize, "crash_after_output.py")
    assert verdict is Verdict.RUNTIME_ERROR
    assert "RuntimeError: boom after the answer" in message
    assert "the output itself was right" in message


def test_killed_by_a_signal_is_a_runtime_error_with_no_exit_code(quantize: Exercise) -> None:
    report = grade(quantize, script("killed_by_signal.py"), cases=first_case(quantize))
    (outcome,) = report.cases
    assert outcome.verdict is Verdict.RUNTIME_ERROR
    assert outcome.exit_code is None
    assert "SIGSEGV" in outcome.message


def test_timeout_kills_a_sleeper_that_ignores_sigterm(quantize: Exercise) -> None:
    started = time.monotonic()
    report = grade(
        quantize, script("sleep_ignoring_sigterm.py"), cases=first_case(quantize), timeout_s=0.5
    )
    (outcome,) = report.cases
    assert outcome.verdict is Verdict.TIMEOUT
    assert outcome.exit_code is None
    assert time.monotonic() - started < 30  # a generous bound: it must not wait for the sleep


def test_cpu_loop_times_out(quantize: Exercise) -> None:
    verdict, _ = verdict_of(quantize, "cpu_loop.py", timeout_s=0.5)
    assert verdict is Verdict.TIMEOUT


@pytest.mark.parametrize("name", ["alloc_4gb.py", "numpy_alloc_4gb.py"])
def test_memory_limit(quantize: Exercise, name: str) -> None:
    verdict, message = verdict_of(quantize, name)
    assert verdict is Verdict.MEMORY_LIMIT
    assert "MemoryError" in message


@pytest.mark.parametrize("name", ["flood_stdout.py", "flood_stderr.py"])
def test_output_limit_stops_a_gigabyte_flood(quantize: Exercise, name: str) -> None:
    verdict, _ = verdict_of(quantize, name)
    assert verdict is Verdict.OUTPUT_LIMIT


def test_output_exactly_at_the_limit_is_not_over_it(quantize: Exercise) -> None:
    verdict, _ = verdict_of(quantize, "exact_output_at_limit.py")
    assert verdict is Verdict.WRONG_ANSWER


def test_grader_error_when_the_interpreter_cannot_run(quantize: Exercise) -> None:
    report = grade(quantize, script("quantize_student.py"), python="/nonexistent/python")
    assert {c.verdict for c in report.cases} == {Verdict.GRADER_ERROR}
    assert report.exit_code == 4


def test_a_grader_error_in_one_case_does_not_stop_the_others(
    quantize: Exercise, sandbox: Sandbox
) -> None:
    calls: list[bytes] = []

    def flaky(argv: list[str], *, stdin: bytes, limits: Limits):  # type: ignore[no-untyped-def]
        calls.append(stdin)
        if len(calls) == 1:
            raise OSError("disk on fire")
        return sandbox.run(argv, stdin=stdin, limits=limits)

    report = grade(quantize, script("quantize_student.py"), runner=flaky, jobs=1)
    assert report.cases[0].verdict is Verdict.GRADER_ERROR
    assert "disk on fire" in report.cases[0].message
    assert all(c.passed for c in report.cases[1:])


def test_closed_stdout_is_a_wrong_answer_not_a_grader_crash(quantize: Exercise) -> None:
    verdict, message = verdict_of(quantize, "closed_stdout.py")
    assert verdict is Verdict.WRONG_ANSWER
    assert "missing line" in message


def test_invalid_utf8_is_decoded_with_replacement(quantize: Exercise) -> None:
    report = grade(quantize, script("invalid_utf8.py"), cases=first_case(quantize))
    (outcome,) = report.cases
    assert outcome.verdict is Verdict.WRONG_ANSWER
    assert "\ufffd" in outcome.stdout


def test_results_keep_case_order_with_parallel_jobs(specdec: Exercise) -> None:
    report = grade(specdec, script("specdec_student.py"), jobs=4)
    assert [c.name for c in report.cases] == sorted(c.name for c in report.cases)


def test_the_submission_sees_only_an_allow_listed_environment(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI_JOB_TOKEN", "secret")
    result = sandbox.run([sys.executable, str(script("reads_env.py"))], stdin=b"", limits=Limits())
    names = set(result.stdout.decode().split())
    assert "CI_JOB_TOKEN" not in names
    assert names <= {
        "PATH",
        "HOME",
        "TMPDIR",
        "LANG",
        "LC_ALL",
        "PYTHONUTF8",
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONHASHSEED",
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
