"""The checked prctl helper (``sandbox/prctl.py``): a refused setting is an error naming it,
and the module loads by path, as the sandbox child and the fork server load it."""

from __future__ import annotations

import errno
import subprocess
import sys
from pathlib import Path

import pytest

import grader.sandbox.prctl as prctl_module

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="prctl is Linux's")

PRCTL = Path(prctl_module.__file__)
PR_GET_DUMPABLE = 3


def _in_a_fresh_process(code: str) -> str:
    """``code`` run with the module loaded by path (no grader package), in a process of its
    own: settings like "not dumpable" must not change the suite's own process."""
    prelude = (
        "import types\n"
        f"m = types.ModuleType('_grade_prctl'); p = {str(PRCTL)!r}\n"
        "exec(compile(open(p).read(), p, 'exec'), m.__dict__)\n"
        "import ctypes\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", prelude + code], capture_output=True, text=True, check=True
    )
    assert "grader" not in done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize(("value", "reads"), [(0, "0"), (1, "1")])
def test_a_setting_takes_hold(value: int, reads: str) -> None:
    code = (
        f"assert m.prctl(m.PR_SET_DUMPABLE, {value}) is True\n"
        f"print(libc.prctl({PR_GET_DUMPABLE}, 0, 0, 0, 0))\n"
        "import sys; print(sorted(n for n in sys.modules if n.startswith('grader')))\n"
    )
    assert _in_a_fresh_process(code).splitlines() == [reads, "[]"]


@pytest.mark.parametrize(
    ("call", "said"),
    [
        ("m.prctl(m.PR_SET_DUMPABLE, 7)", f"[Errno {errno.EINVAL}] prctl(PR_SET_DUMPABLE): "),
        ("m.prctl(9999)", f"[Errno {errno.EINVAL}] prctl(9999): "),
        ("m.prctl(m.PR_SET_PDEATHSIG, 999)", "] prctl(PR_SET_PDEATHSIG): Invalid argument"),
    ],
)
def test_a_refused_setting_is_an_error_naming_it(call: str, said: str) -> None:
    code = f"try:\n    {call}\nexcept OSError as exc:\n    print(exc)\nelse:\n    print('taken')\n"
    assert said in _in_a_fresh_process(code)


def test_a_tolerated_refusal_is_false_not_an_error() -> None:
    code = f"print(m.prctl(m.PR_SET_DUMPABLE, 7, tolerate=({errno.EINVAL},)))\n"
    assert _in_a_fresh_process(code) == "False"
