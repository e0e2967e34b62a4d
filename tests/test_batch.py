"""Batch grading of a class folder, shards and merging, and a clean Ctrl-C."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SCRIPTS

from grader.batch import discover, parse_shard, shard
from grader.cli import cli
from grader.errors import UsageError

REFERENCE = Path(__file__).resolve().parent.parent / "reference"


@pytest.fixture
def klass(tmp_path: Path, reference_dir: Path) -> Path:
    """A class folder: good, wrong, crashing, binary, empty and non-Python submissions."""
    room = tmp_path / "class"
    for name, source in [
        ("alice", reference_dir / "specdec" / "solution.py"),
        ("bob", reference_dir / "specdec" / "wrong" / "no_bonus.py"),
        ("carol", SCRIPTS / "killed_by_signal.py"),
    ]:
        (room / name).mkdir(parents=True)
        shutil.copy(source, room / name / "solution.py")
    (room / "dave").mkdir()
    (room / "dave" / "solution.py").write_bytes(b"\x7fELF\x00\x01binary")
    (room / "erin").mkdir()
    (room / "erin" / "notes.txt").write_text("no script here")
    (room / "frank.py").write_text("while True: pass\n")
    (room / "report.pdf").write_bytes(b"%PDF-1.4")
    return room


def test_discovery_rules(klass: Path) -> None:
    found = {s.name: s for s in discover([str(klass)])}
    assert sorted(found) == ["alice", "bob", "carol", "dave", "erin", "frank", "report.pdf"]
    assert found["alice"].path == klass / "alice" / "solution.py" and found["alice"].problem is None
    assert found["dave"].problem == "a binary file, not a Python script"
    assert found["erin"].problem == "expected one .py file in the folder, found none"
    assert found["report.pdf"].problem == "not a Python script (.py)"
    # a folder holding one script is one submission named after the folder
    assert [s.name for s in discover([str(klass / "alice")])] == ["alice"]
    # quoted globs are expanded by grade itself
    assert [s.name for s in discover([str(klass / "[ab]*")])] == ["alice", "bob"]
    with pytest.raises(UsageError, match="no submission at"):
        discover([str(klass / "nobody")])


def test_shards_partition_the_class(klass: Path) -> None:
    everyone = discover([str(klass)])
    for n in (1, 2, 3, 7, 9):
        slices = [shard(everyone, k, n) for k in range(1, n + 1)]
        names = [s.name for part in slices for s in part]
        assert sorted(names) == sorted(s.name for s in everyone)  # the union is the whole
        assert len(names) == len(set(names))  # no overlap
    assert shard(everyone, 2, 3) == shard(list(reversed(everyone)), 2, 3)  # deterministic


@pytest.mark.parametrize("bad", ["0/3", "4/3", "1-3", "x/y", "1/0"])
def test_bad_shard_specs(bad: str) -> None:
    with pytest.raises(UsageError):
        parse_shard(bad)


def _batch(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["batch", *args], catch_exceptions=False)
    return result.exit_code, result.stdout


def test_batch_writes_csv_and_json_and_survives_bad_submissions(
    klass: Path, tmp_path: Path
) -> None:
    code, stdout = _batch(
        "specdec",
        str(klass),
        "--csv",
        str(tmp_path / "g.csv"),
        "--json",
        str(tmp_path / "g.json"),
        "--timeout",
        "0.3",
    )
    assert code == 0
    assert "7 submissions, 4 graded, 3 not gradable" in stdout
    rows = {
        r["submission"]: r for r in csv.DictReader(io.StringIO((tmp_path / "g.csv").read_text()))
    }
    assert rows["alice"]["score"] == "1.0000" and rows["alice"]["passed"] == "10"
    assert rows["bob"]["03-all-accepted-bonus"] == "wrong_answer"
    assert rows["carol"]["01-sample-good-draft"] == "runtime_error"
    assert rows["frank"]["01-sample-good-draft"] == "timeout"
    assert rows["dave"]["error"] == "a binary file, not a Python script"
    assert rows["dave"]["score"] == "0.0000"
    book = json.loads((tmp_path / "g.json").read_text())
    assert book["exercise"] == "specdec" and book["interrupted"] is False
    by_name = {s["submission"]: s for s in book["submissions"]}
    assert by_name["alice"]["report"]["passed"] == 10
    assert by_name["erin"]["report"] is None


def test_sharded_batches_merge_into_the_whole(klass: Path, tmp_path: Path) -> None:
    parts = []
    for k in (1, 2, 3):
        out = tmp_path / f"shard{k}.json"
        code, _ = _batch(
            "specdec", str(klass), "--shard", f"{k}/3", "--json", str(out), "--timeout", "0.3"
        )
        assert code == 0
        parts.append(out)
    merged, csv_out = tmp_path / "all.json", tmp_path / "all.csv"
    result = CliRunner().invoke(
        cli, ["merge", str(merged), *map(str, parts), "--csv", str(csv_out)]
    )
    assert result.exit_code == 0, result.output
    book = json.loads(merged.read_text())
    names = [s["submission"] for s in book["submissions"]]
    assert names == ["alice", "bob", "carol", "dave", "erin", "frank", "report.pdf"]
    assert csv_out.read_text().count("\n") == 8
    again = CliRunner().invoke(
        cli, ["merge", str(tmp_path / "x.json"), str(parts[0]), str(parts[0])]
    )
    assert again.exit_code == 2 and "in more than one gradebook" in again.stderr


def test_merge_refuses_other_files(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"exercise": "quantize"}')
    result = CliRunner().invoke(cli, ["merge", str(tmp_path / "out.json"), str(other)])
    assert result.exit_code == 2 and "not a grade gradebook" in result.stderr


def test_ctrl_c_stops_cleanly_and_keeps_what_was_graded(
    tmp_path: Path, reference_dir: Path
) -> None:
    room = tmp_path / "class"
    room.mkdir()
    shutil.copy(reference_dir / "specdec" / "solution.py", room / "a_fast.py")
    for i in range(6):
        (room / f"slow{i}.py").write_text("import time\ntime.sleep(30)\n")
    out = tmp_path / "g.json"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "grader",
            "batch",
            "specdec",
            str(room),
            "--jobs",
            "1",
            "--timeout",
            "20",
            "--json",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    # wait until the fast submission is done and a slow one is running, then press Ctrl-C
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not _sandbox_running("slow"):
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGINT)
    _stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr
    book = json.loads(out.read_text())
    assert book["interrupted"] is True
    names = [s["submission"] for s in book["submissions"]]
    assert "a_fast" in names and len(names) < 7


def _sandbox_running(marker: str) -> bool:
    wanted = marker.encode().hex().encode()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if wanted in (entry / "cmdline").read_bytes():
                    return True
            except OSError:
                pass
    return False


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal() -> None:
    from grader.batch import Entry
    from grader.render.progress import batch_progress

    for stream, shown in ((io.StringIO(), False), (_Terminal(), True)):
        with batch_progress(2, stream) as done:
            done(Entry("a", "a.py", None, "binary"))
            done(Entry("b", "b.py", None, "binary"))
        assert bool(stream.getvalue()) is shown
    assert "2 not passing" in stream.getvalue()
