"""benchmarks/speed.py's report, from made-up timings: the figures it prints are ratios measured
in one run (the machine's speed of the day cancels out), never a clock read here."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SPEED = Path(__file__).resolve().parent.parent / "benchmarks" / "speed.py"


def _speed() -> ModuleType:
    spec = importlib.util.spec_from_file_location("speed_benchmark", SPEED)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_class_rate_is_also_said_against_unboxed_in_the_same_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 39: 150 case-runs/s moved with the machine (--sandbox off itself did 127-154/s on
    two days); the sandboxed batch's rate as a share of the unboxed one, each checkout's own,
    does not."""
    speed = _speed()
    timed = speed.Timed
    times = {
        "bare": [timed(2.0, None, b"")],
        "batch": [timed(4.0, 8.0, b""), timed(4.2, 8.0, b""), timed(3.8, 8.0, b"")],
        "batch-off": [timed(3.0, 6.0, b"")],
        "batch@other": [timed(5.0, None, b"")],
        "batch-off@other": [timed(3.0, None, b"")],
    }
    speed._report(times, 26, 20)
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].split() == [
        *("batch", "130", "case-runs/s", "(20", "x", "26),", "15.4", "ms", "CPU"),
        *("a", "case-run,", "0.75x", "--sandbox", "off's", "rate"),
    ]
    assert lines[3].endswith("11.5 ms CPU a case-run")  # no ratio to itself
    assert lines[4].endswith("(20 x 26), 0.60x --sandbox off's rate")  # the other's own pair
