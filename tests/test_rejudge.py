"""``grade compare``: two real batches of the fixture class, before and after one case's expected
output changed; and the rules of a comparison as tables over gradebooks made by hand."""

from __future__ import annotations

import codecs
import csv
import io
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import Golden, copy_root

from grader.cli import cli
from grader.judging.errors import UsageError
from grader.model.resources import Root
from grader.render import rejudge_report
from grader.render.escape import safe
from grader.running.rejudge import CaseResult, Rejudging, Results, Row, read_results, rejudged

HOSTILE = "=eve\x1b[2J\u202e"  # a formula, a terminal control and a bidi override


@dataclass(frozen=True)
class Gradebooks:
    """Two real batches of the fixture class: ``old`` (JSON), then ``new_json`` and ``new_csv``
    after 03-single's expected output changed from 7 to 8."""

    old: Path
    new_json: Path
    new_csv: Path


@pytest.fixture(scope="module")
def gradebooks(course: Root, tmp_path_factory: pytest.TempPathFactory) -> Gradebooks:
    """alice right, bob dropping the last number, carol crashing on negatives, dave binary, and
    a hostile name always printing 8; graded once for the tests that only read the results."""
    tmp = tmp_path_factory.mktemp("rejudge")
    copy = copy_root(course, tmp / "course")
    material = copy.material / "add"
    room = tmp / "class"
    for name, source in [
        ("alice", material / "solution.py"),
        ("bob", material / "wrong" / "drops_last_number.py"),
        ("carol", material / "wrong" / "crashes_on_negative.py"),
    ]:
        (room / name).mkdir(parents=True)
        shutil.copy(source, room / name / "solution.py")
    (room / "dave").mkdir()
    (room / "dave" / "solution.py").write_bytes(b"\x7fELF\x00\x01binary")
    (room / HOSTILE).mkdir()
    (room / HOSTILE / "solution.py").write_text("print(8)\n")
    books = Gradebooks(tmp / "old.json", tmp / "new.json", tmp / "new.csv")
    where = ["--root", str(copy.path)]
    assert _grade("batch", "add", str(room), "--json", str(books.old), *where).returncode == 0
    (copy.cases / "add" / "public" / "03-single.out").write_text("8\n")
    both = ["--csv", str(books.new_csv), "--json", str(books.new_json)]
    assert _grade("batch", "add", str(room), *both, *where).returncode == 0
    return books


def _grade(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "grader", *args], capture_output=True, text=True, check=False
    )


def test_compare_lists_exactly_the_submissions_a_changed_case_flips(
    gradebooks: Gradebooks,
) -> None:
    """Done-when of issue 36: two real batches, 03-single's expected output changed from 7 to 8
    in between: alice and carol (who printed 7) now fail it, the name printing 8 now passes it,
    bob (printing 0) fails it both times and dave's binary is no script either time."""
    old, new, new_json = gradebooks.old, gradebooks.new_csv, gradebooks.new_json

    for other in (new, new_json):  # the CSV gradebook, and the JSON one
        ran = _grade("compare", str(old), str(other), "--format", "json")
        assert ran.returncode == 1, ran.stderr
        found = json.loads(ran.stdout)
        # against a CSV, a name is matched as the CSV writes it: one line of text
        hostile = HOSTILE if other.suffix == ".json" else safe(HOSTILE)
        assert [c["submission"] for c in found["changed"]] == sorted(["alice", "carol", hostile])
        flips = {c["submission"]: c["cases"] for c in found["changed"]}
        assert flips["alice"] == [
            {
                "case": "03-single",
                "old": "passed",
                "new": "wrong_answer",
                "message": flips["alice"][0]["message"],
            }
        ]
        assert [(k["old"], k["new"]) for k in flips[hostile]] == [("wrong_answer", "passed")]
        assert found["only_old"] == found["only_new"] == []
    said = json.loads(_grade("compare", str(old), str(new_json), "--format", "json").stdout)
    alice = next(c for c in said["changed"] if c["submission"] == "alice")
    message = alice["cases"][0]["message"]
    assert message and "8" in message  # the new side's message, from the JSON gradebook

    text = _grade("compare", str(old), str(new_json))
    assert text.returncode == 1
    assert "\x1b" not in text.stdout and "\u202e" not in text.stdout
    assert "=eve\\x1b[2J\\u202e: score" in text.stdout
    assert "  03-single: passed -> wrong_answer: " in text.stdout
    assert text.stdout.endswith(
        f"add: 3 of 5 submissions changed, 0 only in {old}, 0 only in {new_json}\n"
    )

    same = _grade("compare", str(old), str(old))
    assert same.returncode == 0 and same.stdout.startswith("add: 0 of 5 submissions changed")


def test_a_reviewed_list_lets_the_expected_changes_through(
    gradebooks: Gradebooks, tmp_path: Path
) -> None:
    old, new = gradebooks.old, gradebooks.new_json
    reviewed = tmp_path / "reviewed.json"
    reviewed.write_text(_grade("compare", str(old), str(new), "--format", "json").stdout)
    ran = _grade("compare", str(old), str(new), "--expect", str(reviewed))
    assert ran.returncode == 0, ran.stdout  # the hostile name came through JSON exactly
    assert "3 on the reviewed list, 0 not" in ran.stdout
    partial = tmp_path / "reviewed.txt"
    partial.write_text("alice\ncarol\nzed\n")
    ran = _grade("compare", str(old), str(new), "--expect", str(partial))
    assert ran.returncode == 1
    assert "alice: score 1 -> 0.8 (reviewed)" in ran.stdout
    assert "on the reviewed list but unchanged: zed" in ran.stdout


def _results(label: str, *rows: Row, exercise: str | None = "add") -> Results:
    return Results(label, exercise, ("01", "02"), rows)


def _row(name: str, score: float | None, *verdicts: str) -> Row:
    cases = tuple(
        CaseResult(n, v, f"{n} said") for n, v in zip(("01", "02"), verdicts, strict=False)
    )
    return Row(name, score, "", cases)


@pytest.mark.parametrize(
    ("old", "new", "moved"),
    [
        (_row("a", 1.0, "passed", "passed"), _row("a", 1.0, "passed", "passed"), []),
        (_row("a", 1.0, "passed", "passed"), _row("a", 0.5, "passed", "wrong_answer"), ["02"]),
        # the same score from other cases: still a change, both cases named
        (
            _row("a", 0.5, "passed", "wrong_answer"),
            _row("a", 0.5, "wrong_answer", "passed"),
            ["01", "02"],
        ),
        # a case added: its verdict against none
        (_row("a", 1.0, "passed"), _row("a", 1.0, "passed", "passed"), ["02"]),
        # a grader error: no score either side is no change; a score against none is one
        (_row("a", None, "passed", "grader_error"), _row("a", None, "passed", "grader_error"), []),
        (_row("a", 0.5, "passed", "timeout"), _row("a", None, "passed", "grader_error"), ["02"]),
        # a score differing past the CSV's precision only: none
        (_row("a", 0.333333, "passed"), _row("a", 0.33333301, "passed"), []),
        # a message alone (times, outputs): none
        (
            _row("a", 1.0, "passed"),
            replace(_row("a", 1.0, "passed"), cases=(CaseResult("01", "passed", "other"),)),
            [],
        ),
    ],
)
def test_what_counts_as_a_change(old: Row, new: Row, moved: list[str]) -> None:
    found = rejudged(_results("old", old), _results("new", new))
    assert [c.case for change in found.changed for c in change.cases] == moved
    assert found.exit_code == (1 if found.changed else 0)


def test_submissions_on_one_side_only_are_listed_and_fail() -> None:
    found = rejudged(
        _results("old", _row("a", 1.0), _row("gone", 1.0)),
        _results("new", _row("a", 1.0), _row("new", 1.0)),
    )
    assert (found.only_old, found.only_new, found.exit_code) == (("gone",), ("new",), 1)
    allowed = rejudged(
        _results("old", _row("gone", 1.0)),
        _results("new", _row("new", 1.0)),
        expected=frozenset({"gone", "new"}),
    )
    assert allowed.exit_code == 0


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('{"kind": "other"}', "not a grade gradebook"),
        ("{", "cannot read gradebook"),
        ("name,score\nx,1\n", "not a grade gradebook"),
        (
            "submission,score,points,max_points,passed,total,error,01\nx,abc,,,,,,\n",
            "damaged gradebook: number 'abc'",
        ),
        ("submission,score,points,max_points,passed,total,error,01\nx,1\n", "damaged gradebook"),
        (
            "submission,score,points,max_points,passed,total,error\nx,1,,,,,\nx,1,,,,,\n",
            "holds submission x twice",
        ),
    ],
)
def test_an_unusable_gradebook_is_one_line_and_exit_2(
    tmp_path: Path, text: str, error: str
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text(text)
    with pytest.raises(UsageError, match=error):
        read_results(bad)
    ran = CliRunner().invoke(cli, ["compare", str(bad), str(bad)])
    assert ran.exit_code == 2 and ran.stderr.count("\n") == 1 and "grade: error:" in ran.stderr


def test_gradebooks_of_two_exercises_are_refused() -> None:
    with pytest.raises(UsageError, match="different exercises"):
        rejudged(_results("a", exercise="add"), _results("b", exercise="quantize"))


def test_a_csv_name_reads_back_without_the_formula_quote(tmp_path: Path) -> None:
    book = tmp_path / "g.csv"
    book.write_text(
        "submission,score,points,max_points,passed,total,error,01\n'=x,1.0000,1,1,1,1,,passed\n"
    )
    assert [r.submission for r in read_results(book).rows] == ["=x"]


@pytest.mark.parametrize(
    ("name", "render"),
    [("rejudge.txt", rejudge_report.text), ("rejudge.json", rejudge_report.to_json)],
)
def test_the_report_formats(golden: Golden, name: str, render: Callable[[Rejudging], str]) -> None:
    """A change, a grader error, an added case, a name on one side only, a reviewed list."""
    old = _results(
        "old.json",
        _row("alice", 1.0, "passed", "passed"),
        _row("bob\x1b[2J", 0.5, "passed", "wrong_answer"),
        _row("carol", 1.0, "passed"),
        _row("::error::gone", 1.0, "passed", "passed"),
    )
    new = _results(
        "new.json",
        _row("alice", 0.5, "passed", "wrong_answer"),
        replace(_row("bob\x1b[2J", None, "passed", "grader_error"), problem="not graded: x"),
        _row("carol", 0.5, "passed", "timeout"),
        _row("dave", 1.0, "passed", "passed"),
    )
    found = rejudged(old, new, expected=frozenset({"alice", "zed"}))
    golden(name, render(found))


def test_a_csv_gradebook_with_a_huge_cell_reads_whole(tmp_path: Path) -> None:
    """The review's: a cell past the csv module's field limit (131,072 characters) raised
    csv.Error, which grade compare turned into exit 4. Read as an LMS export is (sheet.py),
    there is no such limit."""
    book = tmp_path / "g.csv"
    book.write_text(
        "submission,score,points,max_points,passed,total,error,01\n"
        f"alice,1.0000,1,1,1,1,{'x' * 200_000},passed\n"
    )
    (row,) = read_results(book).rows
    assert row.problem == "x" * 200_000


@pytest.mark.parametrize(
    ("encoding", "delimiter"), [("utf-8-sig", ","), ("utf-16", "\t"), ("utf-8", "\t")]
)
def test_a_csv_gradebook_a_spreadsheet_saved_again_reads_the_same(
    gradebooks: Gradebooks, tmp_path: Path, encoding: str, delimiter: str
) -> None:
    """A teacher opens the gradebook in a spreadsheet and saves it ("CSV UTF-8" adds a byte
    order mark, "Unicode Text" is UTF-16 with tabs): compare read it as UTF-8 with commas and
    refused it. The CSV is read as the LMS export is (sheet.py)."""
    text = gradebooks.new_csv.read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert any("," in cell for row in rows for cell in row)  # a quoted comma, as Excel keeps it
    again = io.StringIO(newline="")
    csv.writer(again, delimiter=delimiter, lineterminator="\r\n").writerows(rows)
    saved = tmp_path / "saved.csv"
    saved.write_bytes(again.getvalue().encode(encoding))
    there, here = read_results(gradebooks.new_csv), read_results(saved)
    assert (here.case_names, here.rows) == (there.case_names, there.rows)
    assert len(here.rows) == 5
    saved.write_bytes((again.getvalue() + "\r\n").encode(encoding))  # a blank last line
    assert read_results(saved).rows == there.rows


def test_a_json_gradebook_saved_with_a_byte_order_mark_reads_the_same(
    gradebooks: Gradebooks, tmp_path: Path
) -> None:
    """The review's: compare took a BOM'd file for JSON, then the gradebook's reader refused
    the BOM ("Unexpected UTF-8 BOM"): an editor on Windows adds one when it saves."""
    saved = tmp_path / "saved.json"
    saved.write_bytes(codecs.BOM_UTF8 + gradebooks.old.read_bytes())
    there, here = read_results(gradebooks.old), read_results(saved)
    assert (here.case_names, here.rows) == (there.case_names, there.rows)


@pytest.mark.parametrize("side", ["old", "new"])
def test_an_interrupted_batch_is_refused_not_read_as_submissions_gone(
    tmp_path: Path, side: str
) -> None:
    """A batch stopped half-way holds only the submissions graded before it stopped: compared,
    every other one would read as gone (or new), and the exit as a real change."""
    from grader.running.gradebook import Entry, Gradebook

    whole = Gradebook("add", ("01",), (Entry("a", "a.py", None, error="x"),))
    files = {}
    for name in ("old", "new"):
        book = replace(whole, interrupted=name == side)
        files[name] = tmp_path / f"{name}.json"
        files[name].write_text(book.to_json())
    ran = CliRunner().invoke(cli, ["compare", str(files["old"]), str(files["new"])])
    assert ran.exit_code == 2 and ran.stderr.count("\n") == 1, ran.output
    assert f"{files[side]} is an interrupted batch" in ran.stderr
    assert "--resume" in ran.stderr
