"""Running the submission as ``python script`` would, in the process that set up its limits.

Shared by both children (``_child.py`` under the Linux sandbox, ``_portable_child.py``
elsewhere) and loaded by path, as the layers are: it imports nothing a platform may lack, and
nothing that costs a run start-up time.
"""

from __future__ import annotations

import os
import sys
import types

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import NoReturn


def run_submission(shown: str, source: str, args: list[str]) -> None:
    """Run the script as ``python shown`` would, as ``__main__``, reading it from ``source``
    (the grader's copy, which the run can read whatever the original's permissions)."""
    sys.argv = [shown, *args]
    # as `python path` does; -I left the script's folder out, and sys.path[0] is the stdlib
    sys.path.insert(0, os.path.dirname(shown))
    main = types.ModuleType("__main__")
    main.__file__ = shown
    import builtins

    # the module, as `python shown` gives __main__ (the child's own may be a dict: the fork
    # server executes it in a namespace of its own)
    main.__dict__["__builtins__"] = builtins
    sys.modules["__main__"] = main
    with open(source, "rb") as f:
        text = f.read()
    try:
        exec(compile(text, shown, "exec", dont_inherit=True), main.__dict__)
    except SystemExit:
        raise
    except BaseException as exc:
        import linecache
        import traceback

        # Tracebacks quote the script's lines by its name: give them, in case that path is not
        # readable in here (a private folder). mtime None: linecache never drops the entry.
        lines = text.decode("utf-8", errors="replace").splitlines(keepends=True)
        linecache.cache[shown] = (len(text), None, lines, shown)
        # Show the traceback as `python submission.py` would: from the submission's first frame.
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != shown:
            tb = tb.tb_next
        traceback.print_exception(type(exc), exc, tb)
        sys.exit(1)


def exit_status(exc: SystemExit) -> int:
    """What the interpreter makes of ``sys.exit(code)``."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        value = int.__int__(code)  # its value, as C reads it: a subclass's operators play no part
        if not -(1 << 63) <= value < 1 << 63:
            value = -1  # too large for a C long: Python exits with -1 (255) then
        return value & 0xFF
    sys.stderr.write(f"{code}\n")
    return 1


def finish(status: int) -> NoReturn:
    """The interpreter's own exit (non-daemon threads joined, atexit handlers run, streams
    flushed) without the module teardown after it, which shows nothing to the run and costs
    ~20 ms once numpy is loaded."""
    threading = sys.modules.get("threading")
    if threading is not None:
        threading._shutdown()
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            status = 120  # as Python exits when it cannot flush stdout at the end
    os._exit(status)


def run_and_exit(main: Callable[[], None]) -> NoReturn:
    """``main`` (a child's: set up, then run the submission), then ``finish`` with the status
    the interpreter would have exited with."""
    try:
        main()
        status = 0
    except SystemExit as exc:
        status = exit_status(exc)
    finish(status)
    raise AssertionError("finish() returned")  # pragma: no cover
