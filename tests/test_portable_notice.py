"""The portable runner's one line, whole, per platform: the notice is the contract a student
reads (commands/notices.py says it every time), so each clause is held here from a table, and
with it whether the platform can read a run's CPU time while it runs (what stretches its clock
on a busy machine, and what the line's last clause warns of where it cannot)."""

from __future__ import annotations

import sys

# loaded as on Linux: said to be darwin, psutil would look for its macOS half
import psutil  # noqa: F401
import pytest

from grader.sandbox import platforms, procfs, treewatch

LIMITED = "runs are limited in"
SAYS = "but not isolated from your files"
ESCAPES = " (a double fork may outlive them)"
CI = "; fine for practice, CI grades on Linux"
BUSY = "; a busy machine may time out a slow run"
ALL = "time, memory, processes and output"


@pytest.mark.parametrize(
    ("platform", "watched", "proc", "has_psutil", "live", "line"),
    [
        (
            "linux", True, True, True, True,
            f"with GRADE_PORTABLE=1, {LIMITED} {ALL} {SAYS}{CI}",
        ),
        (
            "linux", False, False, False, False,
            f"with GRADE_PORTABLE=1, {LIMITED} time, memory and output {SAYS}{CI}{BUSY}",
        ),
        ("win32", False, False, False, True, f"on Windows, {LIMITED} {ALL} {SAYS}{CI}"),
        ("darwin", True, False, True, True, f"on macOS, {LIMITED} {ALL} {SAYS}{ESCAPES}{CI}"),
        (
            "darwin", False, False, False, False,
            f"on macOS, {LIMITED} time and output {SAYS}{ESCAPES}{CI}{BUSY}",
        ),
        (
            "freebsd14", False, False, True, True,
            f"on freebsd14, {LIMITED} time, memory and output {SAYS}{ESCAPES}{CI}",
        ),
    ],
)  # fmt: skip
def test_each_platforms_whole_notice(
    monkeypatch: pytest.MonkeyPatch,
    platform: str,
    watched: bool,
    proc: bool,
    has_psutil: bool,
    live: bool,
    line: str,
) -> None:
    monkeypatch.setattr(sys, "platform", platform)
    monkeypatch.setattr(
        treewatch, "default_look", lambda: treewatch.look_psutil if watched else None
    )
    monkeypatch.setattr(procfs, "PROC", procfs.PROC if proc else "/nonexistent-proc")
    if not has_psutil:
        monkeypatch.setitem(sys.modules, "psutil", None)  # its import fails, as where it is not
    assert (platforms.live_cpu_known(), platforms.notice()) == (live, line)


@pytest.mark.parametrize(
    ("platform", "where"),
    [("linux", "with GRADE_PORTABLE=1"), ("darwin", "on macOS"), ("win32", "on Windows")],
)
def test_strict_refuses_in_one_line_that_says_what_to_do(
    monkeypatch: pytest.MonkeyPatch, platform: str, where: str
) -> None:
    monkeypatch.setattr(sys, "platform", platform)
    assert platforms.strict_refusal() == (
        f"--sandbox strict: {where} runs cannot be isolated (no namespaces, Landlock or "
        "seccomp); grade with --sandbox auto for practice, and on Linux for grading"
    )
