"""Run one Python script as ``__main__`` on many inputs in this one process, as ``python SCRIPT
ARGS < INPUT`` would each time: ``python run_many.py SCRIPT < requests > results``.

The requests are a pickled list of ``(args, stdin)``; the results, a pickled list of
``(exit_code, stdout, stderr)``. The script is compiled once and
its imports stay loaded: thousands of small runs of a teacher's script (a generator, validator,
reference, accepted solution or checker) cost seconds, not an interpreter each.
Trusted scripts only: nothing here is sandboxed.
"""

from __future__ import annotations

import io
import pickle
import sys
import traceback
from pathlib import Path
from types import CodeType

Request = tuple[list[str], bytes]
Result = tuple[int, bytes, bytes]


def _status(exc: SystemExit, stderr: io.TextIOWrapper) -> int:
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    stderr.write(f"{exc.code}\n")
    return 1


def run_one(script: Path, code: CodeType, request: Request) -> Result:
    args, data = request
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="surrogateescape")
    stderr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    saved = sys.stdin, sys.stdout, sys.stderr, sys.argv
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    sys.stdout, sys.stderr, sys.argv = stdout, stderr, [str(script), *args]
    try:
        exec(code, {"__name__": "__main__", "__file__": str(script)})
        status = 0
    except SystemExit as exc:
        status = _status(exc, stderr)
    except BaseException:
        traceback.print_exc()
        status = 1
    finally:
        sys.stdin, sys.stdout, sys.stderr, sys.argv = saved
    stdout.flush()
    stderr.flush()
    out, err = stdout.buffer, stderr.buffer
    assert isinstance(out, io.BytesIO) and isinstance(err, io.BytesIO)
    return status, out.getvalue(), err.getvalue()


def main() -> None:
    script = Path(sys.argv[1]).resolve()
    sys.path.insert(0, str(script.parent))  # as `python SCRIPT` has it: its siblings import
    code = compile(script.read_bytes(), str(script), "exec")
    requests: list[Request] = pickle.loads(sys.stdin.buffer.read())
    results = [run_one(script, code, r) for r in requests]
    sys.stdout.buffer.write(pickle.dumps(results))


if __name__ == "__main__":
    main()
