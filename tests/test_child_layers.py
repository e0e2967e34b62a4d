"""The sandbox child's layers as named steps (``sandbox/_child.py``): one rule for applying a
layer and recording it, and the order the layers are applied in, as a probe reports them."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the Linux sandbox's child")


@dataclass
class _Config:
    layers: frozenset[str]
    probe: bool


@dataclass
class _State:
    cfg: _Config
    report: dict[str, Any] = field(default_factory=dict)


def _ok(state: Any) -> None:
    state.report.setdefault("ran", 0)


def _fails(state: Any) -> None:
    raise OSError("no such layer here")


@pytest.mark.parametrize(
    ("asked", "probe", "action", "holds", "report", "raises"),
    [
        (False, False, _ok, False, {}, False),  # not asked: not run, not reported
        (False, True, _fails, False, {}, False),
        (True, False, _ok, True, {"ran": 0, "uid": "ok"}, False),
        (True, True, _fails, False, {"uid": "OSError: no such layer here"}, False),
        (True, False, _fails, None, {"uid": "OSError: no such layer here"}, True),
    ],
)
def test_a_layer_step_runs_if_asked_and_says_how_it_went(
    asked: bool,
    probe: bool,
    action: Callable[[Any], None],
    holds: bool | None,
    report: dict[str, Any],
    raises: bool,
) -> None:
    from grader.sandbox import _child

    state = _State(_Config(frozenset({"uid"} if asked else set()), probe))
    if raises:  # grading: the first layer that fails ends the child (the grader's error)
        with pytest.raises(OSError, match="no such layer here"):
            _child._step(state, "uid", action)  # type: ignore[arg-type]
    else:
        assert _child._step(state, "uid", action) is holds  # type: ignore[arg-type]
    assert state.report == report


def test_a_probe_reports_the_layers_in_the_order_they_are_applied() -> None:
    from grader.sandbox import Sandbox, SandboxMode, _child, sandbox

    Sandbox.create(SandboxMode.AUTO, hide=())
    assert sandbox._PROBED, "the probe ran"
    for probed in sandbox._PROBED.values():
        layers = [name for name in probed if name in _child.LAYER_ORDER]
        assert layers == [n for n in _child.LAYER_ORDER if n in layers], probed
        assert set(_child.LAYER_ORDER) >= {
            str(layer) for layer in probed if layer != "landlock_abi"
        }
