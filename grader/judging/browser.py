"""One case in the browser (``grade site``), in two Web Workers of Pyodide each: the student's
worker runs the program (``execute_raw``) and reports its raw run; the judge's worker, where
no student code ever runs, judges that run (``judge_raw``) by the same code as ``grade``:
``judge.judge`` with the exercise's comparator (or its checker, by
``checker.checker_verdict``'s rules), ``diagnose.explain``, and once every case is judged
``mistakes.py``'s rule over the known mistakes' digests (``diagnose_raw``).
A program can rebind anything of its own interpreter, so it must never hold the judge (issue
38). This module and those it imports are copied into the site as they are.

No sandbox is needed there: the student's own code runs in the student's own browser tab. What
the browser cannot do (a memory limit; a time limit, which the page enforces by ending the
worker) is said on the page.
"""

from __future__ import annotations

import builtins
import contextlib
import decimal
import functools
import io
import json
import linecache
import os
import sys
import tempfile
import time
import traceback
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .checker import checker_verdict
from .compare import Comparator, build, digest
from .diagnose import explain
from .errors import GraderError
from .grouping import Grouping, Placement, signature
from .judge import grader_error, judge, not_compiled, syntax_error
from .mistakes import Mistakes, witness
from .printed import INPUT_LINES, head_lines
from .records import Case, CaseFeedback, CaseOutcome, Comparison, Verdict
from .runs import LimitHit, Limits, RunResult

SHOWN = "main.py"  # the student's script, as tracebacks name it
CHECKER = "check.py"


class _Flooded(BaseException):
    """Raised by a write past the cap, to end the program there, as grade's sandbox ends a run
    at its cap: a BaseException, which ``except Exception`` in the program does not catch."""


class _Capped(io.BytesIO):
    """An output file that keeps at most ``cap`` bytes; a write past them stops the program."""

    def __init__(self, cap: int) -> None:
        super().__init__()
        self.cap, self.over = cap, False

    def write(self, data: Any) -> int:
        room = self.cap - self.tell()
        if len(data) > room:
            self.over = True
            super().write(bytes(data)[: max(0, room)])
            raise _Flooded
        return super().write(data)

    def close(self) -> None:  # the program closed its stream: what it wrote stays readable
        pass


def _stream(raw: io.BytesIO, errors: str) -> io.TextIOWrapper:
    # as a script's own sys.stdout is (UTF-8 mode), .buffer included
    return io.TextIOWrapper(raw, encoding="utf-8", errors=errors, write_through=True)


# A Grade runs the same program (and checker) on every case: each is compiled once, not per case
@functools.lru_cache(maxsize=8)
def _code(source: str, shown: str) -> types.CodeType:
    return compile(source, shown, "exec", dont_inherit=True)


@functools.lru_cache(maxsize=8)
def _syntax_error(source: str) -> str:
    return syntax_error(source.encode(), SHOWN)


def execute(source: str, shown: str, stdin: bytes, cap: int, argv: list[str]) -> RunResult:
    """Run ``source`` as ``python shown *argv[1:]`` would, as ``__main__`` in a namespace of
    its own, with ``stdin`` as input and its output captured (at most ``cap`` bytes each)."""
    out, err = _Capped(cap), _Capped(cap)
    streams = (
        _stream(io.BytesIO(stdin), "surrogateescape"),
        _stream(out, "surrogateescape"),
        _stream(err, "backslashreplace"),
    )
    # what a fresh process would not inherit from the case before: restored after each run
    saved = sys.stdin, sys.stdout, sys.stderr, sys.argv, sys.modules.get("__main__")
    path, folder, depth = list(sys.path), os.getcwd(), sys.getrecursionlimit()
    numbers = decimal.getcontext()  # a program's precision and rounding, per thread
    decimal.setcontext(decimal.Context())  # a fresh process's: 28 digits, half to even
    sys.stdin, sys.stdout, sys.stderr = streams
    sys.argv = argv
    main = types.ModuleType("__main__")  # as `python shown` has it: pickle finds its classes
    main.__file__ = shown
    main.__dict__["__builtins__"] = builtins
    sys.modules["__main__"] = main
    # tracebacks quote the program's lines by its name, which is no file here
    linecache.cache[shown] = (len(source), None, source.splitlines(keepends=True), shown)
    status = 0
    started = time.perf_counter()
    try:
        exec(_code(source, shown), main.__dict__)
    except _Flooded:  # stopped at the cap: what it wrote is the evidence, no traceback
        status = 1
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            status = (exc.code or 0) & 0xFF
        else:
            with contextlib.suppress(_Flooded):
                sys.stderr.write(f"{exc.code}\n")
            status = 1
    except BaseException as exc:  # the program's crash: its traceback, from its own frames
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != shown:
            tb = tb.tb_next
        with contextlib.suppress(_Flooded):  # a traceback past the cap: what fits of it
            sys.stderr.write("".join(traceback.format_exception(type(exc), exc, tb)))
        status = 1
    finally:
        for stream in streams[1:]:
            # closed by the program: flushed then; over the cap: stopped already
            with contextlib.suppress(ValueError, _Flooded):
                stream.flush()
        sys.stdin, sys.stdout, sys.stderr, sys.argv, was_main = saved
        if was_main is not None:
            sys.modules["__main__"] = was_main
        sys.path[:] = path
        sys.setrecursionlimit(depth)
        decimal.setcontext(numbers)
        with contextlib.suppress(OSError):
            os.chdir(folder)
        _reopen_stdin()
    return RunResult(
        exit_code=status,
        signal=None,
        wall_s=time.perf_counter() - started,
        stdout=out.getvalue(),
        stderr=err.getvalue(),
        limit_hit=LimitHit.OUTPUT if out.over or err.over else None,
        over="stdout" if out.over else "stderr" if err.over else None,
    )


def _reopen_stdin() -> None:
    """Descriptor 0 again, for the next case, if the program closed it (``open(0).read()``
    does, as its file is collected): in Pyodide it is the worker's, fed each case's input."""
    try:
        os.fstat(0)
    except OSError:
        with contextlib.suppress(OSError):
            os.open("/dev/stdin", os.O_RDONLY)  # the lowest free descriptor: 0


@dataclass(frozen=True)
class BrowserChecker:
    """The exercise's checker, run here on the case's files: ``check.py input expected``."""

    source: str
    case: Case
    cap: int
    checking: Callable[[], None] | None = None  # tells the page: the checker's time now

    def __call__(self, expected: str, got: str) -> Comparison:
        if self.checking is not None:
            self.checking()
        before = os.getcwd()
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "input").write_bytes(self.case.input)
            Path(folder, "expected").write_text(expected, encoding="utf-8")
            os.chdir(folder)
            try:
                argv = [CHECKER, "input", "expected"]
                stdin = got.encode("utf-8", errors="surrogateescape")
                run = execute(self.source, CHECKER, stdin, self.cap, argv)
            finally:
                os.chdir(before)
        return checker_verdict(run, got, CHECKER)


def _case(case: Mapping[str, Any]) -> Case:
    return Case(
        name=str(case["name"]),
        input=str(case["input"]).encode(),
        expected=str(case["expected"]),
        title=str(case["title"]),
        hint=case.get("hint"),
    )


Earlier = Sequence[Mapping[str, Any]]  # the "group" of each result above, in case order


def execute_raw(source: str, stdin: str, cap: int) -> dict[str, Any]:
    """One run of ``source`` in the student's worker, as that worker tells the page of it: the
    exit status, each stream as text of one character per byte (latin-1, so any bytes cross
    to the page and back as they were), the stream that went over ``cap``, the time. Nothing
    of the case but its input is here: the judge, in a worker of its own, has the rest."""
    run = execute(source, SHOWN, stdin.encode("utf-8", errors="surrogateescape"), cap, [SHOWN])
    return {
        "exit_code": run.exit_code,
        "stdout": run.stdout.decode("latin-1"),
        "stderr": run.stderr.decode("latin-1"),
        "over": run.over,
        "wall_s": run.wall_s,
    }


def _run_of(raw: object, cap: int) -> RunResult:
    """The run the student's worker reported, read as data its program may have forged: that
    can say no more than printing does; a report of the wrong shape is the program's crash."""
    fields = raw if isinstance(raw, Mapping) else {}
    out, err, code = fields.get("stdout"), fields.get("stderr"), fields.get("exit_code")
    over = fields.get("over") if fields.get("over") in ("stdout", "stderr") else None
    wall = fields.get("wall_s")
    if not (isinstance(out, str) and isinstance(err, str) and type(code) is int):
        out, err, code, over = "", "the program broke what reports its run to the page\n", 1, None
    return RunResult(
        exit_code=code & 0xFF,
        signal=None,
        wall_s=float(wall) if isinstance(wall, (int, float)) and wall >= 0 else 0.0,
        stdout=out.encode("latin-1", errors="replace")[:cap],
        stderr=err.encode("latin-1", errors="replace")[:cap],
        limit_hit=LimitHit.OUTPUT if over else None,
        over=over,
    )


def judge_raw(
    source: str,
    case: Mapping[str, Any],
    exercise: Mapping[str, Any],
    raw: object,
    checking: Callable[[], None] | None = None,
    earlier: Earlier = (),
) -> dict[str, Any]:
    """The verdict of the run ``raw`` (``execute_raw``'s, from the student's worker) of
    ``source`` on one case of the site's exercise JSON, as ``grade --format json`` names
    things, with what the page shows beside it: ``earlier`` holds the ``group`` of each case's
    result above this one, for ``grouping.py`` to say whether it repeats one. The page calls it
    in the judge's worker, where no student code runs."""
    found = _case(case)
    cap = int(exercise["output_kb"]) * 1024
    limits = Limits(time_s=float(exercise["time_s"]), output_kb=int(exercise["output_kb"]))
    error = _syntax_error(source)
    if error:  # said once, above the cases, as grade does: nothing to group
        return _result(not_compiled(found, error), earlier)
    compare = build(str(exercise["method"]), dict(exercise["options"]))
    comparator: Comparator
    if compare.comparator is None:  # a checker: bound to this case, run in the judge's Python
        comparator = BrowserChecker(str(exercise["checker"]), found, cap, checking)
    else:
        comparator = compare.comparator
    try:
        outcome = judge(found, _run_of(raw, cap), comparator, limits)
    except GraderError as exc:  # the checker failed: the exercise's fault, not the student's
        return _result(grader_error(found, str(exc)), earlier)
    printed = set((case.get("printed") or {}).values())
    known = explain(outcome, Path(SHOWN), source, lambda out: digest(out) in printed)
    return _result(known, earlier)


def diagnose_raw(exercise: Mapping[str, Any], results: Sequence[Mapping[str, Any]]) -> Any:
    """The known mistake the page's results are, once every case is judged, by grade's own
    rule (``mistakes.py``) over the exercise's mistakes (``site.py`` wrote them): as
    ``grade --format json``'s ``diagnoses`` entry, with the line grade's reports print for it
    (``summary``, worded once in ``Diagnosis``), or None."""
    printed = {c["name"]: dict(c.get("printed") or {}) for c in exercise["cases"]}
    known = Mistakes(dict(exercise.get("mistakes") or {}), printed)
    seen = (
        witness(
            str(r["name"]),
            Verdict(r["status"]),
            compiled=r.get("compiled") is not False,
            shown=True,  # the page holds public cases only, each shown in full
            wrong=functools.partial(str, r.get("digest")),
        )
        for r in results
    )
    found = known.diagnose(s for s in seen if s is not None)
    if found is None:
        return None
    return {
        "mistake": found.mistake,
        "hint": found.message,
        "cases": list(found.cases),
        "summary": found.summary,
    }


def run_case(
    source: str,
    case: Mapping[str, Any],
    exercise: Mapping[str, Any],
    checking: Callable[[], None] | None = None,
    earlier: Earlier = (),
) -> dict[str, Any]:
    """``source`` run on one case and judged, in one interpreter: the page's two workers'
    steps in one (the tests' way to hold the page's Python to grade's verdicts)."""
    if _syntax_error(source):  # never run: judged as not compiling
        return judge_raw(source, case, exercise, None, checking, earlier)
    cap = int(exercise["output_kb"]) * 1024
    raw = execute_raw(source, str(case["input"]), cap)
    return judge_raw(source, case, exercise, raw, checking, earlier)


def stopped_case(
    case: Mapping[str, Any], exercise: Mapping[str, Any], earlier: Earlier = ()
) -> dict[str, dict[str, Any]]:
    """What the page shows if it has to end a worker on this case: ``timeout`` when the
    student's ran past the time limit, ``checker`` when the judge's checker did; grouped and
    hinted as ``judge_raw``'s results are."""
    found, limit = _case(case), float(exercise["time_s"])
    timed_out = CaseOutcome(
        case=found,
        verdict=Verdict.TIMEOUT,
        message=f"no answer within {limit:g} s; stopped",
        time_s=limit,
    )
    checker = grader_error(found, "the checker did not finish: the exercise's fault, not yours")
    return {"timeout": _result(timed_out, earlier), "checker": _result(checker, earlier)}


def _placement(group: Mapping[str, Any], earlier: Earlier) -> Placement:
    grouping = Grouping()
    for case in [*earlier, group]:
        placed, grouping = grouping.place(
            case["name"], case["key"], case["hint"], case.get("verdict") or ""
        )
    return placed


def _group(feedback: CaseFeedback, compiled: bool) -> dict[str, Any]:
    """What ``grouping.py`` needs of this case to place the cases below it (the page keeps it
    and hands it back: a worker ended at a time limit takes its grouping with it)."""
    found = signature(feedback) if compiled else None
    return {
        "name": feedback.name,
        "key": None if found is None else json.dumps(found),  # JSON: it crosses to the page
        "hint": feedback.hint,
        "verdict": feedback.verdict.value,
    }


def _result(outcome: CaseOutcome, earlier: Earlier = ()) -> dict[str, Any]:
    c = outcome.comparison
    feedback = outcome.feedback()
    group = _group(feedback, outcome.compiled)
    placed = _placement(group, earlier)
    return {
        "name": outcome.case.name,
        "compiled": outcome.compiled,  # False: the syntax error is in stderr, said once
        "group": group,
        "same_as": placed.same_as,  # a repeat of that case's mistake: a pointer to it
        "hint_said": placed.hint_said,  # its hint is not to be said (grouping.py)
        "status": outcome.verdict.value,
        "message": outcome.message,
        # the input as grade's report shows it: clipped, its first lines (a case of 250 KB on
        # one line made the page too large to draw)
        "input": head_lines(feedback.input, INPUT_LINES),
        "time_s": outcome.time_s,
        "stdout": outcome.stdout,
        "stderr": outcome.stderr,
        "advice": outcome.advice,
        "hint": feedback.hint,  # decided as the CLI decides it (records.HINTED)
        # what the report's diagnosis weighs (diagnose_raw), once every case is judged
        "digest": digest(outcome.stdout) if outcome.verdict is Verdict.WRONG_ANSWER else None,
        "line": None if c is None else c.line,
        "token": None if c is None else c.token,
        "expected_line": None if c is None else c.expected_line,
        "got_line": None if c is None else c.got_line,
    }
