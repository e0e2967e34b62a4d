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
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import SCRIPTS
from test_render import _outcome

from grader.cli import cli
from grader.judging.errors import UsageError
from grader.judging.records import Feedback, Report, Verdict
from grader.model.resources import Root
from grader.model.spec import Exercise
from grader.running.batch import NOT_GRADED, discover, parse_shard, shard
from grader.running.gradebook import Gradebook, Journal, Shard


@pytest.fixture
def klass(tmp_path: Path, add: Exercise) -> Path:
    """A class folder: good, wrong, crashing, binary, empty and non-Python submissions."""
    material = add.root.material / "add"
    room = tmp_path / "class"
    for name, source in [
        ("alice", material / "solution.py"),
        ("bob", material / "wrong" / "drops_last_number.py"),
        ("carol", SCRIPTS / "killed_by_signal.py"),
    ]:
        (room / name).mkdir(parents=True)
        shutil.copy(source, room / name / "solution.py")
    (room / "dave").mkdir()
    (room / "dave" / "solution.py").write_bytes(b"\x7fELF\x00\x01binary")
    (room / "erin").mkdir()
    (room / "erin" / "notes.txt").write_text("no script here")
    (room / "=cmd().py").write_text("print(0)\n")  # a name a spreadsheet would run
    (room / "report.pdf").write_bytes(b"%PDF-1.4")
    return room


def test_discovery_rules(klass: Path) -> None:
    found = {s.name: s for s in discover([str(klass)])}
    assert sorted(found) == ["=cmd()", "alice", "bob", "carol", "dave", "erin", "report.pdf"]
    assert found["alice"].path == klass / "alice" / "solution.py" and found["alice"].problem is None
    assert found["dave"].problem == "is a binary file, not a Python script"
    assert found["erin"].problem == "expected one .py file or notebook in the folder, found none"
    named = {s.name: s for s in discover([str(klass)], expected="quantize.py")}
    assert named["erin"].problem == (
        "expected quantize.py, or one .py file or notebook, in the folder, found none"
    )
    assert found["report.pdf"].problem == "is not a Python script (.py) nor a notebook (.ipynb)"
    # a folder holding one script is one submission named after the folder
    assert [s.name for s in discover([str(klass / "alice")])] == ["alice"]
    # quoted globs are expanded by grade itself
    assert [s.name for s in discover([str(klass / "[ab]*")])] == ["alice", "bob"]
    with pytest.raises(UsageError, match="no submission at"):
        discover([str(klass / "nobody")])


def test_a_linked_folder_or_file_in_a_class_is_refused(klass: Path, tmp_path: Path) -> None:
    """Red team: a student's folder that is a symbolic link to a folder the grader can read
    and the student cannot (the reference's, a private one) was graded as theirs: 11/11."""
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    (private / "solution.py").write_text("print(42)\n")
    (klass / "mallory").symlink_to(private)
    (klass / "trent").symlink_to(klass / "alice", target_is_directory=True)
    found = {s.name: s for s in discover([str(klass)])}
    assert found["mallory"].problem == "is a symbolic link; grade the folder itself"
    assert found["trent"].problem == "is a symbolic link; grade the folder itself"
    globbed = {s.name: s for s in discover([str(klass / "*")])}
    assert globbed["mallory"].problem == "is a symbolic link; grade the folder itself"
    assert globbed["alice"].problem is None
    # a path given as it is, link or not, is the caller's own choice
    assert [s.problem for s in discover([str(klass / "mallory")])] == [None]
    # below a glob's wildcard, a link at any depth is the student's (red team, round 2: an
    # absolute glob outside the working directory went through alice/hw -> a private folder)
    (klass / "alice" / "hw").symlink_to(private)
    (klass / "bob" / "hw").mkdir()
    (klass / "bob" / "hw" / "solution.py").write_text("print(1)\n")
    deep = {s.name: s for s in discover([str(klass / "*" / "hw" / "solution.py")])}
    assert deep[str(klass / "alice" / "hw" / "solution.py")].problem == (
        "is reached through alice/hw, a symbolic link; give its real path"
    )
    assert deep[str(klass / "bob" / "hw" / "solution.py")].problem is None


def test_a_class_with_one_script_and_a_notebook_is_a_class(tmp_path: Path) -> None:
    """Newcomer: alice.py, bob.ipynb and carol.txt were one submission (alice's script, named
    after the folder): bob and carol had no row at all. A notebook is named as a script is."""
    room = tmp_path / "class2"
    room.mkdir()
    (room / "alice.py").write_text("print(1)\n")
    (room / "bob.ipynb").write_text("{}")
    (room / "carol.txt").write_text("1\n")
    found = {s.name: s for s in discover([str(room)])}
    assert sorted(found) == ["alice", "bob", "carol.txt"]
    assert found["bob"].problem == "is not a notebook: its JSON has no list of cells"
    # a student's own folder, with notes beside the script, is still one submission
    (tmp_path / "dan").mkdir()
    (tmp_path / "dan" / "quantize.py").write_text("print(1)\n")
    (tmp_path / "dan" / "notes.txt").write_text("todo\n")
    assert [s.name for s in discover([str(tmp_path / "dan")])] == ["dan"]


def test_a_folder_holding_only_a_notebook_is_that_students(tmp_path: Path) -> None:
    """Newcomer: in a class it said "expected one .py file in the folder, found none", and
    given alone the row was named after the notebook, not the student."""
    room = tmp_path / "subs"
    (room / "gina").mkdir(parents=True)
    (room / "gina" / "q.ipynb").write_text('{"cells": []}')
    (room / "hal").mkdir()
    (room / "hal" / "quantize.py").write_text("print(1)\n")
    for found in (discover([str(room)]), discover([str(room / "gina")])):
        gina = next(s for s in found if s.name == "gina")
        assert gina.problem is None and gina.text == b"" and gina.cells is not None, gina
    (room / "gina" / "r.ipynb").write_text('{"cells": []}')  # two: neither is guessed
    gina = next(s for s in discover([str(room)]) if s.name == "gina")
    assert gina.problem == (
        "expected one .py file or notebook in the folder, found q.ipynb, r.ipynb"
    )


def test_shards_partition_the_class(klass: Path) -> None:
    everyone = discover([str(klass)])
    for n in (1, 2, 3, 7, 9):
        slices = [shard(everyone, Shard(k, n)) for k in range(1, n + 1)]
        names = [s.name for part in slices for s in part]
        assert sorted(names) == sorted(s.name for s in everyone)  # the union is the whole
        assert len(names) == len(set(names))  # no overlap
    assert shard(everyone, Shard(2, 3)) == shard(
        list(reversed(everyone)), Shard(2, 3)
    )  # deterministic


@pytest.mark.parametrize("bad", ["0/3", "4/3", "1-3", "x/y", "1/0", "-1/3", "1/3/5", " 1/3", ""])
def test_bad_shard_specs(bad: str) -> None:
    with pytest.raises(UsageError):
        parse_shard(bad)


def _batch(course: Root, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli, ["batch", *args, "--root", str(course.path)], catch_exceptions=False
    )
    return result.exit_code, result.stdout


def test_batch_writes_csv_and_json_and_survives_bad_submissions(
    course: Root, klass: Path, tmp_path: Path
) -> None:
    csv_file, json_file = tmp_path / "g.csv", tmp_path / "g.json"
    junit_file, summary_file = tmp_path / "class.xml", tmp_path / "summary.md"
    code, stdout = _batch(
        course,
        "add",
        str(klass),
        "--csv",
        str(csv_file),
        "--json",
        str(json_file),
        "--junit",
        str(junit_file),
        "--summary",
        str(summary_file),
    )
    assert code == 0
    assert "7 submissions, 4 graded, 3 not gradable" in stdout
    rows = {r["submission"]: r for r in csv.DictReader(io.StringIO(csv_file.read_text()))}
    assert rows["alice"]["score"] == "1.0000" and rows["alice"]["passed"] == "4"
    assert (rows["alice"]["points"], rows["alice"]["max_points"]) == ("5", "5")
    assert rows["bob"]["01-sample"] == "wrong_answer"
    assert rows["bob"]["04-hidden"] == "wrong_answer"
    assert rows["carol"]["01-sample"] == "runtime_error"
    assert rows["dave"]["error"] == "is a binary file, not a Python script"
    assert rows["dave"]["score"] == "0.0000"
    assert "'=cmd()" in rows  # neutralised: a spreadsheet shows it, never runs it
    book = json.loads(json_file.read_text())
    assert book["exercise"] == "add" and book["interrupted"] is False
    by_name = {s["submission"]: s for s in book["submissions"]}
    assert by_name["alice"]["report"]["passed"] == 4
    assert by_name["erin"]["report"] is None
    hidden = next(c for c in by_name["bob"]["report"]["cases"] if c["name"] == "04-hidden")
    assert hidden["message"] == "hidden case"  # gradebooks hold feedback, never raw reports
    assert Gradebook.load(json_file).to_json() == json_file.read_text()  # typed round trip
    assert junit_file.read_text().count("<testsuite ") == 7
    assert "| 01\\-sample | 1/4 | 25% |" in summary_file.read_text()  # alice only


def test_sharded_batches_merge_into_the_whole(course: Root, klass: Path, tmp_path: Path) -> None:
    parts = []
    for k in (1, 2, 3):
        out = tmp_path / f"shard{k}.json"
        code, _ = _batch(course, "add", str(klass), "--shard", f"{k}/3", "--json", str(out))
        assert code == 0
        parts.append(out)
    merged, csv_out = tmp_path / "all.json", tmp_path / "all.csv"
    result = CliRunner().invoke(
        cli, ["merge", "-o", str(merged), *map(str, parts), "--csv", str(csv_out)]
    )
    assert result.exit_code == 0, result.output
    book = json.loads(merged.read_text())
    names = [s["submission"] for s in book["submissions"]]
    assert names == ["=cmd()", "alice", "bob", "carol", "dave", "erin", "report.pdf"]
    assert csv_out.read_text().count("\n") == 8
    again = CliRunner().invoke(
        cli, ["merge", "-o", str(tmp_path / "x.json"), str(parts[0]), str(parts[0])]
    )
    assert again.exit_code == 2 and f"{parts[0]} and {parts[0]} are both shard 1/3" in again.stderr
    partial = CliRunner().invoke(
        cli, ["merge", "-o", str(tmp_path / "y.json"), *map(str, parts[:2])]
    )
    assert partial.exit_code == 2 and "shard 3/3 is missing" in partial.stderr
    assert not (tmp_path / "y.json").exists()
    allowed = CliRunner().invoke(
        cli, ["merge", "-o", str(tmp_path / "y.json"), *map(str, parts[:2]), "--allow-partial"]
    )
    assert allowed.exit_code == 0, allowed.output
    # the output forgotten: shard 1's gradebook was silently replaced by the merge of 2 and 3;
    # the output is an option now, and a shard's gradebook is never one
    before = parts[0].read_bytes()
    forgot = CliRunner().invoke(cli, ["merge", *map(str, parts), "--allow-partial"])
    assert forgot.exit_code == 2 and "missing option '-o' / '--output'" in forgot.stderr
    onto = CliRunner().invoke(cli, ["merge", "-o", str(parts[0]), *map(str, parts[1:])])
    assert onto.exit_code == 2
    assert f"{parts[0]} is the gradebook of shard 1/3: write the merge to another" in onto.stderr
    assert parts[0].read_bytes() == before
    over = CliRunner().invoke(cli, ["merge", "-o", str(merged), *map(str, parts)])  # again
    assert over.exit_code == 0, over.output


def test_merge_refuses_shards_graded_on_other_cases(
    course_copy: Root, klass: Path, tmp_path: Path
) -> None:
    first, second = tmp_path / "1.json", tmp_path / "2.json"
    assert _batch(course_copy, "add", str(klass), "--shard", "1/2", "--json", str(first))[0] == 0
    for suffix in (".in", ".out"):
        (course_copy.cases / "add" / "public" / f"03-single{suffix}").unlink()
    spec = course_copy.exercises / "add.yaml"
    spec.write_text(spec.read_text().replace('  03-single:\n    title: "One number"\n', ""))
    assert _batch(course_copy, "add", str(klass), "--shard", "2/2", "--json", str(second))[0] == 0
    result = CliRunner().invoke(
        cli, ["merge", "-o", str(tmp_path / "all.json"), str(first), str(second)]
    )
    assert result.exit_code == 2
    assert f"{second} was graded on other cases than {first}: -03-single" in result.stderr
    assert not (tmp_path / "all.json").exists()


def test_an_empty_selection_is_a_usage_error(course: Root, tmp_path: Path) -> None:
    """A wrong path in CI must not go green with "0 submissions"."""
    (tmp_path / "empty").mkdir()
    code, _ = _batch(course, "add", str(tmp_path / "empty"))
    assert code == 2


def test_merge_refuses_other_files(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"exercise": "quantize"}')
    result = CliRunner().invoke(cli, ["merge", "-o", str(tmp_path / "out.json"), str(other)])
    assert result.exit_code == 2 and "not a grade gradebook" in result.stderr
    damaged = tmp_path / "damaged.json"
    damaged.write_text('{"kind": "grade-gradebook", "exercise": "add"}')
    result = CliRunner().invoke(cli, ["merge", "-o", str(tmp_path / "out.json"), str(damaged)])
    assert result.exit_code == 2 and "damaged gradebook" in result.stderr


SLOW = 'print("SLOW-RUN-STARTED", flush=True)\nimport time\ntime.sleep(60)\n'


def _batch_in_background(
    course: Root, room: Path, runs: Path, *options: str
) -> subprocess.Popen[str]:
    """``grade batch add ROOM`` in a process of its own, its run folders in ``runs``."""
    return _grade_in_background(course, runs, "batch", "add", str(room), *options)


def _grade_in_background(course: Root, runs: Path, *args: str) -> subprocess.Popen[str]:
    """``grade ARGS`` in a process of its own, its run folders in ``runs``, a 60 s limit."""
    return subprocess.Popen(
        [sys.executable, "-m", "grader", *args, "--timeout", "60", "--root", str(course.path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(runs)},  # its run folders, and nobody else's
        # a suite started in the background (nohup, `cmd &` in a script) passes SIGINT on ignored,
        # and a Python started so never raises KeyboardInterrupt: this is Ctrl-C at a terminal
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def test_ctrl_c_stops_cleanly_and_keeps_what_was_graded(course: Root, tmp_path: Path) -> None:
    room = tmp_path / "class"
    room.mkdir()
    shutil.copy(course.material / "add" / "solution.py", room / "a_fast.py")
    for i in range(6):
        (room / f"slow{i}.py").write_text(SLOW)
    out = tmp_path / "g.json"
    runs = tmp_path / "runs"  # the grader's TMPDIR: its run folders, and nobody else's
    runs.mkdir()
    proc = _batch_in_background(course, room, runs, "--jobs", "1", "--json", str(out))
    try:
        # jobs=1 grades in order: once a slow run has printed its marker, a_fast is done
        _wait_for_marker(runs, b"SLOW-RUN-STARTED", proc)
        os.kill(proc.pid, signal.SIGINT)
        _stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr
    book = json.loads(out.read_text())
    assert book["interrupted"] is True
    rows = {s["submission"]: s for s in book["submissions"]}
    assert rows["a_fast"]["report"]["passed"] == 4
    # the others are rows too, in every format: the class does not seem smaller than it is
    assert sorted(rows) == ["a_fast", *(f"slow{i}" for i in range(6))]
    assert {rows[f"slow{i}"]["error"] for i in range(6)} == {NOT_GRADED}
    assert [r["report"] for n, r in rows.items() if n != "a_fast"] == [None] * 6
    assert list(runs.iterdir()) == []  # every run's folder removed: its processes were ended


def _holding(folder: Path) -> list[int]:
    """Processes with a file of ``folder`` open: a run's stdout and stderr live there."""
    found = []
    for fds in Path("/proc").glob("[0-9]*/fd"):
        try:
            if any(os.readlink(fd).startswith(str(folder)) for fd in fds.iterdir()):
                found.append(int(fds.parent.name))
        except OSError:
            pass  # gone, or not ours to read
    return found


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_killing_the_grader_ends_its_runs(course: Root, tmp_path: Path, sig: int) -> None:
    """However the grader dies (a cancelled CI job, a closed terminal), no run outlives it."""
    room = tmp_path / "class"
    room.mkdir()
    for i in range(3):
        (room / f"slow{i}.py").write_text(SLOW)
    runs = tmp_path / "runs"
    runs.mkdir()
    proc = _batch_in_background(course, room, runs, "--jobs", "2")
    try:
        _wait_for_marker(runs, b"SLOW-RUN-STARTED", proc)
        assert _holding(runs)  # the runs are there to be ended
        os.kill(proc.pid, sig)
        proc.communicate(timeout=60)
        # The runs end with their grader (the kernel's parent-death signal, the process group):
        # the deadline is a hang's backstop, never a speed bound, which a loaded machine breaks.
        deadline = time.monotonic() + 30.0
        while _holding(runs) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _holding(runs) == []
    finally:
        for pid in _holding(runs):
            os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def _wait_for_marker(runs: Path, marker: bytes, proc: subprocess.Popen[Any]) -> None:
    """Until some run of ``proc`` has printed ``marker`` (its stdout file is in its run folder)."""
    while proc.poll() is None:
        for stdout in runs.glob("grade-run-*/stdout"):
            try:
                if marker in stdout.read_bytes():
                    return
            except OSError:
                pass  # the run ended and its folder went between glob and read
        time.sleep(0.02)
    raise AssertionError(f"the batch ended before any slow run started: {proc.communicate()}")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Log(io.StringIO):
    """A CI log: what was flushed is what a reader of the log has seen."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = ""

    def flush(self) -> None:
        self.seen = self.getvalue()


def test_progress_is_a_bar_on_a_terminal_and_a_line_per_submission_elsewhere() -> None:
    from grader.cli.progress import batch_progress
    from grader.running.gradebook import Entry

    terminal = _Terminal()
    with batch_progress(2, terminal, _Terminal()) as done:
        done(Entry("a", "a.py", None, "binary"))
        done(Entry("b", "b.py", None, "binary"))
    assert "2 not passing" in terminal.getvalue() and "[1/2]" not in terminal.getvalue()
    # a CI log (stderr not a terminal), and `grade batch ... | cat` (stdout not one)
    for log, results in ((_Log(), None), (_Log(), io.StringIO())):
        with batch_progress(2, log, results) as done:
            done(Entry("a\x1b[2J", "a.py", None, "binary"))
            assert log.seen == "[1/2] a\\x1b[2J: error: binary\n"  # flushed as it finished
            done(Entry("b", "b.py", None, "binary"))
            assert log.seen.endswith("[2/2] b: error: binary\n")


def test_the_bar_counts_what_is_not_passing_and_a_piped_batch_gets_lines() -> None:
    from grader.cli.progress import batch_progress
    from grader.running.gradebook import Entry

    def graded(*verdicts: Verdict) -> Feedback:
        outcomes = tuple(_outcome(f"0{n + 1}", v, "") for n, v in enumerate(verdicts))
        return Report("add", "a.py", outcomes).feedback()

    terminal = _Terminal()
    with batch_progress(3, terminal, _Terminal()) as done:
        done(Entry("a", "a.py", graded(Verdict.PASSED, Verdict.PASSED)))
        done(Entry("b", "b.py", graded(Verdict.PASSED, Verdict.WRONG_ANSWER)))
        done(Entry("c", "c.py", None, "binary"))
    assert "grading" in terminal.getvalue() and "3/3" in terminal.getvalue()
    assert "2 not passing" in terminal.getvalue()
    assert "3 not passing" not in terminal.getvalue()  # a's 2/2 is a pass
    # stderr a terminal, stdout not (`grade batch ... | cat`): a line per submission
    piped = _Terminal()
    with batch_progress(1, piped, io.StringIO()) as done:
        done(Entry("a", "a.py", None, "binary"))
    assert piped.getvalue() == "[1/1] a: error: binary\n"


@pytest.mark.slow  # a batch killed and run again: ~3 s, in .ci/run's slow pass
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_batch_resumes_and_grades_everyone_once(
    course: Root, tmp_path: Path, sig: int
) -> None:
    """SIGKILL loses only the submissions in flight (the journal has the rest); SIGTERM writes
    the gradebook marked interrupted and exits 143. --resume then grades each remaining one."""
    room = tmp_path / "class"
    room.mkdir()
    for name in ("a_fast", "b_fast"):
        shutil.copy(course.material / "add" / "solution.py", room / f"{name}.py")
    (room / "c_slow.py").write_text(SLOW)
    shutil.copy(course.material / "add" / "wrong" / "drops_last_number.py", room / "d_wrong.py")
    out, runs = tmp_path / "g.json", tmp_path / "runs"
    runs.mkdir()
    journal = tmp_path / "g.json.journal"
    proc = _batch_in_background(course, room, runs, "--jobs", "1", "--json", str(out))
    try:
        _wait_for_marker(runs, b"SLOW-RUN-STARTED", proc)  # jobs=1: a and b are journaled
        os.kill(proc.pid, sig)
        _stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == (-9 if sig == signal.SIGKILL else 143), stderr
    kept = [json.loads(line)["submission"] for line in journal.read_text().splitlines()[1:]]
    assert kept == ["a_fast", "b_fast"]
    code, stdout = _batch(
        course, "add", str(room), "--json", str(out), "--resume", "--timeout", "0.5"
    )
    assert code == 0, stdout
    book = json.loads(out.read_text())
    names = [s["submission"] for s in book["submissions"]]
    assert names == ["a_fast", "b_fast", "c_slow", "d_wrong"]  # each once
    verdicts = {s["submission"]: s["report"]["cases"][0]["status"] for s in book["submissions"]}
    assert verdicts == {
        "a_fast": "passed",
        "b_fast": "passed",
        "c_slow": "timeout",
        "d_wrong": "wrong_answer",
    }
    assert not journal.exists()  # a finished batch leaves no journal behind


def test_resume_goes_on_from_a_journal_a_kill_cut_inside_a_character(
    course: Root, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kill may cut the journal's last line inside a multi-byte name: --resume keeps the rows
    before it (never grading them again) and grades the one cut short."""
    from grader.running import batch as batching
    from grader.running import grading
    from grader.running.submissions import identity

    room = tmp_path / "class"
    room.mkdir()
    for name in ("alice", "b\u00f8b"):
        shutil.copy(course.material / "add" / "solution.py", room / f"{name}.py")
    out = tmp_path / "g.json"
    assert _batch(course, "add", str(room), "--json", str(out))[0] == 0
    book = json.loads(out.read_text())
    found = {s.name: identity(s) for s in batching.discover([str(room)])}
    header = Journal(out).header("add", book["cases"], None, found)
    alice, bob = book["submissions"]
    cut = json.dumps(bob, ensure_ascii=False).encode()
    cut = cut[: cut.index("\u00f8".encode()) + 1]  # the first byte of ø's two
    (tmp_path / "g.json.journal").write_bytes(
        f"{header}\n{json.dumps(alice, ensure_ascii=False)}\n".encode() + cut
    )
    out.unlink()
    graded: list[str] = []
    real = grading.grade_submissions

    def counting(plan: Any, subs: Any, **kwargs: Any) -> Any:
        graded.extend(s.name for s in subs)
        return real(plan, subs, **kwargs)

    monkeypatch.setattr(batching, "grade_submissions", counting)
    code, stdout = _batch(course, "add", str(room), "--json", str(out), "--resume")
    assert code == 0, stdout
    assert graded == ["b\u00f8b"]  # alice's journaled row stands, not graded again
    rows = {s["submission"]: s["score"] for s in json.loads(out.read_text())["submissions"]}
    assert rows == {"alice": 1.0, "b\u00f8b": 1.0}


def test_resume_refuses_another_batchs_journal(course: Root, tmp_path: Path) -> None:
    (tmp_path / "g.json.journal").write_text('{"kind": "grade-journal", "exercise": "other"}\n')
    mine = tmp_path / "mine.py"
    mine.write_text("print(6)\n")
    code, _ = _batch(course, "add", str(mine), "--json", str(tmp_path / "g.json"), "--resume")
    assert code == 2


@pytest.mark.slow  # the default suite's time (45 s): CI's slow pass runs it
def test_a_hung_submission_costs_one_time_limit_not_one_per_case(
    course: Root, tmp_path: Path
) -> None:
    """--skip-after-timeout: once a case timed out, a submission's other cases are skipped."""
    hung = tmp_path / "hung.py"
    hung.write_text("while True: pass\n")
    out = tmp_path / "g.json"
    code, _ = _batch(
        course,
        "add",
        str(hung),
        "--json",
        str(out),
        "--timeout",
        "0.5",
        "--jobs",
        "1",
        "--skip-after-timeout",
    )
    assert code == 0
    (row,) = json.loads(out.read_text())["submissions"]
    statuses = [c["status"] for c in row["report"]["cases"]]
    assert statuses == ["timeout", "skipped", "skipped", "skipped"]
    assert row["report"]["cases"][1]["message"] == "not run: case 01-sample timed out"
    budget = tmp_path / "b.json"
    code, _ = _batch(
        course,
        "add",
        str(hung),
        "--json",
        str(budget),
        "--timeout",
        "0.5",
        "--jobs",
        "1",
        "--max-time-per-submission",
        "0.9",
    )
    (row,) = json.loads(budget.read_text())["submissions"]
    statuses = [c["status"] for c in row["report"]["cases"]]
    # how many timeouts fit in 0.9 s depends on the machine's load; that the rest is skipped not
    assert statuses[0] == "timeout" and statuses[-1] == "skipped"
    assert set(statuses) == {"timeout", "skipped"}


@pytest.mark.parametrize(
    ("sig", "code", "report"),
    [
        (signal.SIGINT, 130, "plain"),  # printed as it goes
        (signal.SIGTERM, 143, "plain"),
        (signal.SIGINT, 130, "json"),  # written whole at the end: nothing printing to stop
    ],
)
def test_check_stops_at_once_on_ctrl_c_and_sigterm(
    course: Root, tmp_path: Path, sig: int, code: int, report: str
) -> None:
    """grade check ends its runs at once instead of waiting for their time limit."""
    slow = tmp_path / "slow.py"
    slow.write_text(SLOW)
    runs = tmp_path / "runs"
    runs.mkdir()
    proc = _grade_in_background(course, runs, "check", "add", str(slow), "--format", report)
    try:
        _wait_for_marker(runs, b"SLOW-RUN-STARTED", proc)
        os.kill(proc.pid, sig)
        _stdout, stderr = proc.communicate(timeout=30)  # a bound, far below the 60 s limit
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == code, stderr
    assert "grade: interrupted" in stderr.splitlines() and "Traceback" not in stderr
    assert _holding(runs) == []


def test_what_is_graded_is_what_was_listed(add: Exercise, plan_of: Any, tmp_path: Path) -> None:
    """Red team, round 2: the batch checked a submission when it listed the class, and each run
    read the file again later: a student's process on the grading machine swapped their folder
    for a link to a private one meanwhile, and the private solution was graded as theirs."""
    from grader.running.batch import grade_batch

    room = tmp_path / "class"
    (room / "zz").mkdir(parents=True)
    (room / "zz" / "solution.py").write_text("print(0)\n")  # wrong on every case
    (room / "yy").mkdir()
    (room / "yy" / "solution.py").write_text("print(0)\n")
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    shutil.copy(add.root.material / "add" / "solution.py", private / "solution.py")
    listed = discover([str(room)])
    (room / "zz").rename(tmp_path / "zz.old")
    (room / "zz").symlink_to(private)  # after the listing, before any run
    book = grade_batch(plan_of(add), listed)
    zz = next(e for e in book.entries if e.submission == "zz")
    assert zz.feedback is not None and zz.feedback.passed == 0, zz


def test_a_grader_error_is_no_score_and_resume_grades_just_those_again(
    course: Root, add: Exercise, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The grader failed on a submission (a machine that starved its runs): every format says
    "not graded" with the reason, never a 0; exit 4 names it on stderr with the command that
    grades it again; --resume grades only it; the gradebook is then complete."""
    from grader.running import grading

    room = tmp_path / "class"
    for name in ("alice", "zed"):
        (room / name).mkdir(parents=True)
        shutil.copy(add.root.material / "add" / "solution.py", room / name / "solution.py")
    with (room / "zed" / "solution.py").open("a") as f:
        f.write("# starved\n")
    real = _starve(monkeypatch)
    files = {k: tmp_path / f"g.{k}" for k in ("csv", "json", "md", "xml")}
    args = ["batch", "add", str(room), "--csv", str(files["csv"]), "--json", str(files["json"])]
    args += ["--summary", str(files["md"]), "--junit", str(files["xml"])]
    args += ["--root", str(course.path)]
    first = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert first.exit_code == 4
    said = first.stderr.splitlines()[-1]
    assert said.startswith("grade: 1 submission not graded (a grader error, no score written): zed")
    assert said.endswith("--resume")
    rows = {r["submission"]: r for r in csv.DictReader(io.StringIO(files["csv"].read_text()))}
    assert rows["zed"]["score"] == rows["zed"]["points"] == rows["zed"]["passed"] == ""
    assert rows["zed"]["error"].startswith("not graded: grader error on ")
    assert "too busy" in rows["zed"]["error"]
    assert rows["alice"]["score"] == "1.0000"
    book = json.loads(files["json"].read_text())
    scores = {s["submission"]: (s["score"], s["error"]) for s in book["submissions"]}
    assert scores["alice"] == (1.0, None)
    assert scores["zed"][0] is None and "too busy" in scores["zed"][1]
    md = files["md"].read_text()
    assert "| 0.0-0.1 | 0 |" in md and "| 0.9-1.0 | 1 |" in md  # out of the histogram
    assert "Not graded (a grader error, no score; grade them again): zed" in md
    assert "not graded: grader error" in first.stdout and "score 0.00" not in first.stdout
    junit = files["xml"].read_text()
    assert junit.count('<property name="score" value="not graded" />') == 1  # zed's suite
    assert junit.count('<property name="score" value="1" />') == 1  # alice's

    monkeypatch.setattr(grading, "_run_unstarved", real)  # the machine is quiet again
    graded_again: list[str] = []
    real_grade = grading.grade_submissions

    def counting(plan: Any, subs: Any, **kwargs: Any) -> Any:
        graded_again.extend(s.name for s in subs)
        return real_grade(plan, subs, **kwargs)

    monkeypatch.setattr("grader.running.batch.grade_submissions", counting)
    again = CliRunner().invoke(cli, [*args, "--resume"], catch_exceptions=False)
    assert again.exit_code == 0, again.stderr
    assert graded_again == ["zed"]  # alice's row was kept
    rows = {r["submission"]: r for r in csv.DictReader(io.StringIO(files["csv"].read_text()))}
    assert (rows["alice"]["score"], rows["zed"]["score"]) == ("1.0000", "1.0000")
    assert not (tmp_path / "g.json.journal").exists()


def _starve(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A machine that starves every run of a script holding ``# starved`` (the grader's fault,
    never the student's: a grader error); returns the real run, to put back."""
    from grader.judging.errors import MachineBusy
    from grader.running import grading

    real = grading._run_unstarved

    def starved(plan: Any, argv: list[str], case: Any, text: bytes | None) -> Any:
        if text is not None and b"# starved" in text:
            raise MachineBusy("this machine was too busy to give the run its 2 s")
        return real(plan, argv, case, text)

    monkeypatch.setattr(grading, "_run_unstarved", starved)
    return real


@pytest.mark.parametrize("count", [1, 10, 11])
def test_without_a_gradebook_the_not_graded_are_named_with_a_command_for_just_them(
    course: Root, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    """No --json or --csv, so no journal to --resume from: the line names the first ten (and
    how many more) and gives the batch of just their files, one job at a time."""
    room = tmp_path / "class"
    room.mkdir()
    names = [f"s{i:02}" for i in range(count)]
    for name in names:
        (room / name).mkdir()
        (room / name / "solution.py").write_text("# starved\n")
    _starve(monkeypatch)
    ran = CliRunner().invoke(
        cli, ["batch", "add", str(room), "--root", str(course.path)], catch_exceptions=False
    )
    assert ran.exit_code == 4, ran.output
    who = {
        1: "1 submission not graded (a grader error, no score written): s00",
        10: "10 submissions not graded (a grader error, no score written): "
        "s00, s01, s02, s03, s04, s05, s06, s07, s08, s09",
        11: "11 submissions not graded (a grader error, no score written): "
        "s00, s01, s02, s03, s04, s05, s06, s07, s08, s09 and 1 more",
    }[count]
    files = " ".join(str(room / name / "solution.py") for name in names)
    assert ran.stderr.splitlines()[-1] == (
        f"grade: {who}; grade just those again: grade batch add {files} --jobs 1"
    )


def test_the_command_that_grades_the_not_graded_again_is_the_one_typed_with_resume(
    course: Root, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a journal, the line gives the very command typed, --resume added once: again
    after a --resume that met the same busy machine, not a second --resume."""
    room = tmp_path / "class"
    room.mkdir()
    (room / "zed.py").write_text("# starved\n")
    _starve(monkeypatch)
    args = ["batch", "add", str(room), "--json", str(tmp_path / "g.json")]
    args += ["--root", str(course.path)]
    again = f"; grade just those again: grade {' '.join(args)} --resume"
    for typed in (args, [*args, "--resume"]):
        monkeypatch.setattr(sys, "argv", ["/venv/bin/grade", *typed])  # as a shell starts it
        ran = CliRunner().invoke(cli, typed, catch_exceptions=False)
        assert ran.exit_code == 4, ran.output
        assert ran.stderr.splitlines()[-1].endswith(again), ran.stderr


@pytest.mark.parametrize(
    "text",
    [
        '{"kind": "grade-gradebook", "exercise": "add", "cases": [], "shard": null,'
        ' "interrupted": false, "submissions": [{"submission": "a", "path": "a",'
        ' "report": null, "error": ["x"]}]}',
        '{"kind": "grade-gradebook", "exercise": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"kind": "grade-gradebook", "exer',
    ],
    ids=["error-list", "deep", "bad-json"],
)
def test_merge_of_a_damaged_shard_is_a_usage_error(tmp_path: Path, text: str) -> None:
    damaged = tmp_path / "damaged.json"
    damaged.write_text(text)
    result = CliRunner().invoke(cli, ["merge", "-o", str(tmp_path / "out.json"), str(damaged)])
    assert result.exit_code == 2 and str(damaged) in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_merge_of_a_shard_not_utf8_is_a_usage_error(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.json"
    damaged.write_bytes(b'{"kind": "\xff"}')
    result = CliRunner().invoke(cli, ["merge", "-o", str(tmp_path / "out.json"), str(damaged)])
    assert result.exit_code == 2 and str(damaged) in result.stderr
