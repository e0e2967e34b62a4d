"""The default number of runs at once: the CPUs this process may use, not the machine's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from grader.sandbox import cpus
from grader.sandbox.cpus import quota_cpus, usable_cpus


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("max 100000\n", None),  # no quota
        ("200000 100000\n", 2),
        ("150000 100000", 2),  # a CPU and a half: rounded up, the half is usable
        ("50000 100000", 1),
        ("1000 100000", 1),  # never 0
        ("0 100000", None),
        ("garbage", None),
        ("x 100000", None),
        ("", None),
    ],
)
def test_a_cgroup_quota_in_cpus(text: str, count: int | None) -> None:
    assert quota_cpus(text) == count


def _cgroup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own: str) -> Path:
    real = Path.read_text

    def read_text(path: Path, *args: object, **kwargs: object) -> str:
        if str(path) == "/proc/self/cgroup":
            return f"0::{own}\n"
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", read_text)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(64)), raising=False)
    return tmp_path


def test_a_containers_quota_bounds_the_runs_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _cgroup(tmp_path, monkeypatch, "/ci/job")
    (root / "ci" / "job").mkdir(parents=True)
    assert usable_cpus(root) == 64  # no cpu.max anywhere: the machine's
    (root / "ci" / "job" / "cpu.max").write_text("max 100000\n")
    (root / "ci" / "cpu.max").write_text("200000 100000\n")  # the parent's quota holds too
    assert usable_cpus(root) == 2
    (root / "ci" / "job" / "cpu.max").write_text("100000 100000\n")
    assert usable_cpus(root) == 1


def test_affinity_bounds_the_runs_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _cgroup(tmp_path, monkeypatch, "/")
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3, 5, 7}, raising=False)
    assert usable_cpus(root) == 3


def test_without_affinity_or_cgroups_the_machines_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """macOS and Windows: no sched_getaffinity, no /proc."""
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    monkeypatch.setattr(cpus, "_CGROUP_ROOT", tmp_path / "none")
    assert usable_cpus(tmp_path / "none") == 8
