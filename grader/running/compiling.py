"""Whether a submission compiles, asked of the sandbox, never of the grader's own process.

A syntax error is one mistake, said once above the cases, so the grader checks it before any
case runs. Compiling is running the student's text through CPython's compiler, which a
submission can make allocate gigabytes (a ``match`` with thousands of captures) or work for
minutes (hundreds of thousands of keyword arguments): done in the grader, one submission would
take down the grader or stall a class. So it is a run like any other: this small program, in
the sandbox, under the exercise's limits, with the student's text on stdin. A run that computes
to its limit is that student's "does not compile", never the grader's problem; one the
machine kept from a CPU (a slow start on a busy laptop) is asked again, then the grader's.
"""

from __future__ import annotations

from ..judging.errors import InternalError
from ..judging.printed import decode, last_line
from ..judging.runs import LimitHit, Limits, Runner, RunResult
from ..judging.timing import compiler_stalled

# Run as the submission itself (the sandbox reads no file of the grader's package): its text
# on stdin, its name as the first argument. Prints what Python prints for a syntax error, or
# nothing; exits 0 either way, so that any other end is the compiler's own failure.
PROGRAM = b"""\
import sys, traceback
source = sys.stdin.buffer.read()
try:
    compile(source, sys.argv[1], "exec", dont_inherit=True)
except SyntaxError as exc:
    # CPython may quote the line by reading the file of that name, which here is this program
    lines = source.decode("utf-8", "replace").splitlines(keepends=True)
    if exc.lineno is not None and 0 < exc.lineno <= len(lines):
        exc.text = lines[exc.lineno - 1]
    sys.stdout.write("".join(traceback.format_exception_only(type(exc), exc)))
except MemoryError:
    sys.stdout.write("MemoryError: the compiler ran out of memory on this script\\n")
except (ValueError, RecursionError) as exc:  # a NUL byte, absurd nesting
    sys.stdout.write(f"{type(exc).__name__}: {exc}\\n")
"""


def compile_error(runner: Runner, python: str, shown: str, text: bytes, limits: Limits) -> str:
    """What Python prints if ``text`` (shown as ``shown``) does not compile, or "". A compiler
    the limits stop, or that crashes, is a compile error of the script's; a sandbox that fails
    raises, as for any run (``GraderError``: the grader's)."""
    run = runner([python, shown, shown], stdin=text, limits=limits, source=PROGRAM)
    if _stalled(run, limits):  # the machine's moment, not the script: once more
        run = runner([python, shown, shown], stdin=text, limits=limits, source=PROGRAM)
        if _stalled(run, limits):
            raise InternalError(
                f"the compile check got {run.cpu_s or 0.0:.2f} s of CPU in {limits.time_s:g} s, "
                "twice: this machine is too busy; grade again with fewer runs at once (--jobs)"
            )
    if run.limit_hit in (LimitHit.WALL_TIME, LimitHit.CPU_TIME):
        return f"the compiler took more than {limits.time_s:g} s over this script\n"
    if run.limit_hit is LimitHit.MEMORY or "MemoryError" in last_line(decode(run.stderr)):
        return f"the compiler needed more than {limits.memory_mb} MB for this script\n"
    if run.limit_hit is LimitHit.OUTPUT:
        return "the compiler's message was larger than the output limit\n"
    if run.exit_code != 0:  # the compiler itself crashed on this text (a C stack overflow)
        why = last_line(decode(run.stderr)) or f"exit code {run.exit_code}, signal {run.signal}"
        return f"the compiler failed on this script: {why}\n"
    return decode(run.stdout)


def _stalled(run: RunResult, limits: Limits) -> bool:
    return run.limit_hit is LimitHit.WALL_TIME and compiler_stalled(limits.time_s, run.cpu_s)
