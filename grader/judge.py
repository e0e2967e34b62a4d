"""Turn one run of one case into a verdict. Pure: no processes, no files."""

from __future__ import annotations

import signal

from .cases import Case
from .compare import Comparator, Comparison
from .report import CaseOutcome, Verdict
from .sandbox import LimitHit, Limits, RunResult


def decode(data: bytes) -> str:
    # Student output is data: invalid UTF-8 must not crash the grader or hide the rest.
    return data.decode("utf-8", errors="replace")


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def judge(case: Case, run: RunResult, comparator: Comparator, limits: Limits) -> CaseOutcome:
    stdout, stderr = decode(run.stdout), decode(run.stderr)
    comparison: Comparison | None = None
    if run.limit_hit is LimitHit.WALL_TIME:
        verdict, message = Verdict.TIMEOUT, f"no answer within {limits.time_s:g} s; stopped"
    elif run.limit_hit is LimitHit.CPU_TIME:
        verdict = Verdict.TIMEOUT
        message = f"used more than {limits.time_s:g} s of CPU time; stopped"
    elif run.limit_hit is LimitHit.OUTPUT:
        verdict = Verdict.OUTPUT_LIMIT
        message = f"printed more than {limits.output_kb} KB on stdout or stderr"
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
        if comparator(case.expected, stdout).ok:
            message += " (the output itself was right)"
    else:
        comparison = comparator(case.expected, stdout)
        verdict = Verdict.PASSED if comparison.ok else Verdict.WRONG_ANSWER
        message = comparison.message
    return _outcome(case, verdict, message, run.wall_s, run.exit_code, stdout, stderr, comparison)


def grader_error(case: Case, message: str) -> CaseOutcome:
    return _outcome(case, Verdict.GRADER_ERROR, message, 0.0, None, "", "", None)


def _outcome(
    case: Case,
    verdict: Verdict,
    message: str,
    time_s: float,
    exit_code: int | None,
    stdout: str,
    stderr: str,
    comparison: Comparison | None,
) -> CaseOutcome:
    return CaseOutcome(
        name=case.name,
        title=case.title,
        verdict=verdict,
        message=message,
        time_s=round(time_s, 3),
        exit_code=exit_code,
        max_points=case.points,
        visibility=case.visibility,
        hint=case.hint,
        input=decode(case.input),
        stdout=stdout,
        stderr=stderr,
        comparison=comparison,
    )
