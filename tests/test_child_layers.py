"""The sandbox child's layers as named steps (``sandbox/_child.py``): one rule for applying a
layer and recording it, and the order the layers are applied in, as a probe reports them."""

from __future__ import annotations

import importlib.util
import os
import py_compile
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
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


def _module_pair(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "layer.py"
    path.write_text(text)
    return path


def test_a_layer_module_is_loaded_from_its_current_bytecode(tmp_path: Path) -> None:
    from grader.sandbox import _child

    path = _module_pair(tmp_path, "X = 1\n")
    py_compile.compile(str(path), cfile=importlib.util.cache_from_source(str(path)))
    stat = path.stat()
    path.write_text("X = 2\n")  # same size, and the same time below: the cache still stands
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    found: dict[str, Any] = {}
    exec(_child.cached_code(str(path)), found)
    assert found["X"] == 1  # the bytecode's, so it was read rather than compiled


def test_a_stale_or_missing_bytecode_is_compiled_and_never_written(tmp_path: Path) -> None:
    from grader.sandbox import _child

    path = _module_pair(tmp_path, "X = 1\n")
    found: dict[str, Any] = {}
    exec(_child.cached_code(str(path)), found)
    assert found["X"] == 1
    assert not (tmp_path / "__pycache__").exists()  # a run's process writes nothing there
    py_compile.compile(str(path), cfile=importlib.util.cache_from_source(str(path)))
    path.write_text("X = 22\n")  # another size: stale
    exec(_child.cached_code(str(path)), found)
    assert found["X"] == 22
