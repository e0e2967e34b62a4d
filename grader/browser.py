"""One case in the browser (``grade site``): run inside Pyodide, in a Web Worker, with the same
comparator and messages as ``grade`` (this module, ``compare.py`` and ``records.py`` are copied
into the site as they are). No sandbox is needed there: the student's own code runs in the
student's own browser tab.
"""

from __future__ import annotations

import io
import sys
import traceback
from typing import Any

from .compare import build

SHOWN = "main.py"


class _Capped(io.StringIO):
    """An output stream that keeps at most ``cap`` characters and says when it was over."""

    def __init__(self, cap: int) -> None:
        super().__init__()
        self.cap, self.over = cap, False

    def write(self, text: str) -> int:
        room = self.cap - self.tell()
        if len(text) > room:
            self.over = True
            text = text[: max(0, room)]
        return super().write(text)


def run_case(
    source: str, data: str, expected: str, method: str, options: dict[str, Any], cap: int
) -> dict[str, Any]:
    """The verdict of ``source`` on one case, as ``grade``'s JSON names things."""
    out, err = _Capped(cap), _Capped(cap)
    try:
        code = compile(source, SHOWN, "exec", dont_inherit=True)
    except SyntaxError as exc:
        why = "".join(traceback.format_exception_only(type(exc), exc))
        return {
            "status": "runtime_error",
            "message": f"does not compile: {why.strip()}",
            "stdout": "",
            "stderr": why,
        }
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(data), out, err
    status = 0
    try:
        exec(code, {"__name__": "__main__", "__builtins__": __builtins__})
    except SystemExit as exc:
        status = 0 if exc.code is None else exc.code if isinstance(exc.code, int) else 1
    except BaseException as exc:  # the student's crash: its traceback, from its own frames
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != SHOWN:
            tb = tb.tb_next
        err.write("".join(traceback.format_exception(type(exc), exc, tb)))
        status = 1
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    stdout, stderr = out.getvalue(), err.getvalue()
    found: dict[str, Any] = {"stdout": stdout, "stderr": stderr}
    if out.over or err.over:
        stream = "stdout" if out.over else "stderr"
        return {
            **found,
            "status": "output_limit",
            "message": f"printed more than {cap // 1024} KB on {stream}; stopped",
        }
    if status != 0:
        last = stderr.strip().split("\n")[-1] if stderr.strip() else ""
        message = f"exited with code {status}" + (f": {last}" if last else "")
        return {**found, "status": "runtime_error", "message": message}
    comparison = build(method, options)(expected, stdout)
    return {
        **found,
        "status": "passed" if comparison.ok else "wrong_answer",
        "message": comparison.message,
        "line": comparison.line,
        "token": comparison.token,
        "expected_line": comparison.expected_line,
        "got_line": comparison.got_line,
    }
