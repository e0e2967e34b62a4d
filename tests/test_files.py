"""Output files: written whole or not at all, where the caller can read them."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from grader.files import refuse_overwriting, write_atomically
from grader.judging.errors import InternalError, UsageError


def test_replaces_the_file_whole_keeping_its_mode(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    out.write_text("old\n")
    out.chmod(0o640)
    write_atomically(out, "new\n")
    assert out.read_text() == "new\n"
    assert out.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_a_new_file_follows_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        write_atomically(tmp_path / "private.csv", "x\n")
    finally:
        os.umask(old)
    assert (tmp_path / "private.csv").stat().st_mode & 0o777 == 0o600


def test_a_full_disk_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "g.json"
    out.write_text("the gradebook of yesterday\n")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(InternalError, match="No space left on device"):
        write_atomically(out, "half of today's")
    assert out.read_text() == "the gradebook of yesterday\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_a_missing_folder_is_the_callers_mistake(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="cannot write"):
        write_atomically(tmp_path / "nowhere" / "g.json", "x")


def test_writes_through_a_symlink_to_its_file(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old")
    (tmp_path / "link.json").symlink_to(real)
    write_atomically(tmp_path / "link.json", "new")
    assert real.read_text() == "new" and (tmp_path / "link.json").is_symlink()


def test_refuses_to_overwrite_an_input(tmp_path: Path) -> None:
    mine = tmp_path / "mine.py"
    mine.touch()
    refuse_overwriting([None, tmp_path / "other.json"], [mine], "a submission")
    with pytest.raises(UsageError, match="is a submission"):
        refuse_overwriting([tmp_path / "." / "mine.py"], [mine], "a submission")
