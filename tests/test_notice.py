"""How often, and in how many words, a command says what the sandbox lacks (commands/notices.py)."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from grader.commands.notices import in_ci, sandbox_line
from grader.sandbox import Layer, Sandbox, SandboxMode

DAY = datetime.date(2026, 12, 1)
# Ubuntu 24.04 or Docker: no user namespaces, Landlock and seccomp hold
LAPTOP = Sandbox(
    SandboxMode.AUTO,
    frozenset({Layer.LANDLOCK, Layer.SECCOMP}),
    {Layer.NAMESPACES: "unshare: Operation not permitted", Layer.MOUNTS: "no namespaces"},
)
BRIEF = (
    "runs are isolated by Landlock and seccomp only: fine for practice (-v says what is missing)"
)


def env(tmp_path: Path, **more: str) -> dict[str, str]:
    return {"XDG_CACHE_HOME": str(tmp_path / "cache"), **more}


def test_a_laptop_gets_one_short_line_once_a_day(tmp_path: Path) -> None:
    full = LAPTOP.notice()
    assert full is not None and "sysctl" in full and len(full) > 300  # what it used to say
    assert sandbox_line(LAPTOP, verbose=False, environ=env(tmp_path), today=DAY) == BRIEF
    assert sandbox_line(LAPTOP, verbose=False, environ=env(tmp_path), today=DAY) is None
    tomorrow = DAY + datetime.timedelta(days=1)
    assert sandbox_line(LAPTOP, verbose=False, environ=env(tmp_path), today=tomorrow) == BRIEF


@pytest.mark.parametrize(
    ("verbose", "more"),
    [
        (True, {}),
        (False, {"CI": "true"}),
        (False, {"GITHUB_ACTIONS": "true"}),
        (False, {"GITLAB_CI": "1"}),
    ],
    ids=["-v", "CI", "GitHub", "GitLab"],
)
def test_ci_and_v_get_the_whole_line_every_time(
    tmp_path: Path, verbose: bool, more: dict[str, str]
) -> None:
    for _ in range(2):
        said = sandbox_line(LAPTOP, verbose=verbose, environ=env(tmp_path, **more), today=DAY)
        assert said == LAPTOP.notice()


def test_off_is_always_said_in_full(tmp_path: Path) -> None:
    off = Sandbox(SandboxMode.OFF, frozenset(), {})
    for _ in range(2):
        said = sandbox_line(off, verbose=False, environ=env(tmp_path), today=DAY)
        assert said is not None and said.startswith("warning: --sandbox off")


def test_nothing_missing_says_nothing(tmp_path: Path) -> None:
    whole = Sandbox(SandboxMode.AUTO, frozenset(Layer), {})
    assert sandbox_line(whole, verbose=True, environ=env(tmp_path), today=DAY) is None


def test_an_unwritable_cache_says_the_short_line_every_time(tmp_path: Path) -> None:
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the folder would be")
    for _ in range(2):
        said = sandbox_line(LAPTOP, verbose=False, environ=env(tmp_path), today=DAY)
        assert said == BRIEF


@pytest.mark.parametrize(
    ("environ", "ci"),
    [({}, False), ({"CI": "false"}, False), ({"CI": "0"}, False), ({"CI": "1"}, True)],
)
def test_what_counts_as_ci(environ: dict[str, str], ci: bool) -> None:
    assert in_ci(environ) is ci
