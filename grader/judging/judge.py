"""Turn one run of one case into a verdict. Pure: no processes, no files."""

from __future__ import annotations

import re
import signal
import traceback

from .compare import Comparator
from .errors import GraderError
from .printed import decode, last_line
from .records import Case, CaseOutcome, Comparison, Verdict
from .runs import LimitHit, Limits, RunResult
from .timing import time_message


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


RIGHT_ANYWAY = " (the output itself was right)"


def judge(case: Case, run: RunResult, comparator: Comparator, limits: Limits) -> CaseOutcome:
    stdout, stderr = decode(run.stdout), decode(run.stderr)
    comparison: Comparison | None = None
    if run.limit_hit in (LimitHit.WALL_TIME, LimitHit.CPU_TIME):
        verdict = Verdict.TIMEOUT
        message = time_message(run.limit_hit, limits.time_s, run.clock, _progress(case, stdout))
    elif run.limit_hit is LimitHit.OUTPUT:
        verdict = Verdict.OUTPUT_LIMIT
        stream = run.over or "stdout or stderr"
        message = f"printed more than {limits.output_kb} KB on {stream}; stopped"
    elif run.limit_hit is LimitHit.MEMORY:
        verdict = Verdict.MEMORY_LIMIT
        message = f"ran out of memory (limit {limits.memory_mb} MB): {last_line(stderr)}"
    elif run.crashed:
        verdict = Verdict.RUNTIME_ERROR
        if run.signal is not None:
            message = f"killed by {_signal_name(run.signal)}"
        else:
            message = f"exited with code {run.exit_code}"
        why = last_line(stderr)
        if why:
            message += f": {why}"
        if _right_anyway(comparator, case.expected, stdout):
            message += RIGHT_ANYWAY
    else:
        comparison = comparator(case.expected, stdout)
        verdict = Verdict.PASSED if comparison.ok else Verdict.WRONG_ANSWER
        message = comparison.message
    return CaseOutcome(
        case=case,
        verdict=verdict,
        message=message,
        time_s=round(run.wall_s, 3),
        exit_code=run.exit_code,
        stdout=stdout,
        stderr=stderr,
        comparison=comparison,
        cpu_s=None if run.cpu_s is None else round(run.cpu_s, 3),
        peak_bytes=run.peak_bytes,
        memory_mb=limits.memory_mb,
    )


def _progress(case: Case, stdout: str) -> str:
    """How far it got: the lines printed against the lines expected."""
    printed = len(stdout.splitlines())
    expected = len(case.expected.splitlines())
    return f"after printing {printed} of the {expected} expected line{'s' * (expected != 1)}"


def _right_anyway(comparator: Comparator, expected: str, stdout: str) -> bool:
    """Whether a crashed run's output was right: a remark only, so a checker's own failure
    here must not turn the student's runtime error into anything else."""
    try:
        return comparator(expected, stdout).ok
    except GraderError:
        return False


def grader_error(case: Case, message: str) -> CaseOutcome:
    return CaseOutcome(case=case, verdict=Verdict.GRADER_ERROR, message=message, time_s=0.0)


def skipped(case: Case, message: str) -> CaseOutcome:
    return CaseOutcome(case=case, verdict=Verdict.SKIPPED, message=message, time_s=0.0)


def syntax_error(source: bytes, filename: str) -> str:
    """What Python prints when ``source`` does not compile, or "" when it does."""
    try:
        compile(source, filename, "exec")
    except SyntaxError as exc:
        return "".join(traceback.format_exception_only(type(exc), exc))
    except (ValueError, RecursionError, MemoryError) as exc:  # a NUL byte, absurd nesting
        return f"{type(exc).__name__}: {exc}\n"
    return ""


def not_compiled(case: Case, error: str) -> CaseOutcome:
    """The outcome of a case that did not run because the script does not compile."""
    where = re.search(r"(?:cell \d+, )?line \d+", error)  # a notebook's cell, where it is one
    why = last_line(error).removeprefix("SyntaxError: ")
    return CaseOutcome(
        case=case,
        verdict=Verdict.RUNTIME_ERROR,
        message=f"does not compile: {where[0]}: {why}" if where else f"does not compile: {why}",
        time_s=0.0,
        exit_code=1,
        stderr=error,
        compiled=False,
    )
