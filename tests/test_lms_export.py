"""``grade export``: a gradebook's scores into sample gradebook exports of Canvas, Moodle and
Blackboard (tests/data/lms/, in the formats their documentation gives), round-tripped: the
written file is the export with only the filled cells changed."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import DATA

from grader.cli import cli
from grader.commands.exporting import read_pairs
from grader.judging.errors import UsageError
from grader.judging.records import CaseFeedback, Feedback, Verdict
from grader.running.gradebook import Entry, Gradebook
from grader.running.sheet import Sheet, read_sheet

LMS = DATA / "lms"
HOSTILE = "=eve\x1b[2J"


def _feedback(name: str, *verdicts: Verdict) -> Feedback:
    cases = tuple(
        CaseFeedback(
            name=f"0{i + 1}",
            title=f"case {i + 1}",
            verdict=v,
            message="" if v is Verdict.PASSED else f"{v.value} here",
            time_s=0.01,
            exit_code=0,
            points=2.0 if v is Verdict.PASSED else 0.0,
            max_points=2.0,
        )
        for i, v in enumerate(verdicts)
    )
    return Feedback(exercise="add", submission=name, cases=cases)


P, W, G = Verdict.PASSED, Verdict.WRONG_ANSWER, Verdict.GRADER_ERROR


def _book(names: dict[str, str] | None = None) -> Gradebook:
    """alice 4 of 4, bob 3 of 4, carol a grader error, dave no script, and a hostile name; the
    names given as ``names`` (alice -> its key in the export) where one is given."""
    rename = names or {}
    rows = [
        ("alice", _feedback("alice", P, P, P, P)),
        ("bob", _feedback("bob", P, P, P, W)),
        ("carol", _feedback("carol", P, G, P, P)),
        ("dave", None),
        (HOSTILE, _feedback(HOSTILE, P, W, W, W)),
    ]
    entries = tuple(
        Entry(rename.get(n, n), f"class/{n}", f, None if f else "not a Python script")
        for n, f in rows
    )
    return Gradebook("add", ("01", "02", "03", "04"), entries)


# each sample: the export, its target column (by name), the key each student is matched by,
# and what a full score is worth in the column
def _same(name: str) -> str:
    return name


def _email(name: str) -> str:
    return f"{name}@example.edu"


SAMPLES: dict[str, tuple[str, str, Callable[[str], str], float | None]] = {
    "canvas": ("canvas.csv", "Add whole numbers", _same, 20.0),
    "moodle": ("moodle.csv", "Add whole numbers", _email, None),
    "blackboard": ("blackboard.xls", "Add whole numbers", _same, 20.0),
}


def _raw(sheet: Sheet) -> list[tuple[list[str], str]]:
    """Each record's raw fields (as written, quotes and all) and its line ending."""
    return [([sheet.text[f.start : f.end] for f in r.fields], r.terminator) for r in sheet.records]


@pytest.mark.parametrize("lms", sorted(SAMPLES))
def test_the_export_round_trips_with_only_the_column_filled(lms: str, tmp_path: Path) -> None:
    """Done-when of issue 36: every byte but the filled column's cells is the export's."""
    sample, column, key, most = SAMPLES[lms]
    roster = tmp_path / sample
    shutil.copy(LMS / sample, roster)
    book = tmp_path / "gradebook.json"
    book.write_text(_book({n: key(n) for n in ("alice", "bob", "carol", "dave")}).to_json())
    out = tmp_path / f"filled-{sample}"
    ran = subprocess.run(
        [
            *(sys.executable, "-m", "grader", "export", str(book), "--lms", lms),
            *("--roster", str(roster), "--column", column, "-o", str(out), "--allow-unmatched"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 4, ran.stderr  # carol: a grader error, left empty
    assert roster.read_bytes() == (LMS / sample).read_bytes()  # the export itself untouched
    before, after = read_sheet(roster), read_sheet(out)
    assert (after.encoding, after.delimiter) == (before.encoding, before.delimiter)
    assert out.read_bytes()[:3] == (LMS / sample).read_bytes()[:3]  # its BOM kept
    target = next(i for i, h in enumerate(before.header) if column in h)
    old, new = _raw(before), _raw(after)
    assert len(old) == len(new)
    for (cells, end), (filled, end_after) in zip(old, new, strict=True):
        assert end == end_after
        assert [c for i, c in enumerate(cells) if i != target] == [
            c for i, c in enumerate(filled) if i != target
        ]
    # read by a consumer's own parser: the scores as points of the column's maximum
    table = list(csv.reader(io.StringIO(after.text, newline=""), delimiter=after.delimiter))
    keys = list(before.header).index(
        {"canvas": "SIS Login ID", "moodle": "Email address"}.get(lms, "Username")
    )
    got = {row[keys]: row[target] for row in table[1:] if len(row) > keys}
    full = most if most is not None else 8.0  # Moodle's export says no maximum: the points
    assert got[key("alice")] == f"{full:g}"
    assert got[key("bob")] == f"{full * 0.75:g}"
    assert got[key("carol")] == ""  # never a 0 for a run the grader never judged
    assert got[key("dave")] == "0"  # no script: the student's to answer for
    assert "carol" in ran.stderr and "not graded" in ran.stderr
    assert "1 submission(s) match no student: =eve\\x1b[2J" in ran.stderr
    assert "erin" in ran.stderr  # a student with no submission, listed
    assert ran.stdout.startswith(f"{out}: 3 scores in ")
    worth = "the export gives no maximum" if most is None else f"points of {most:g}"
    assert worth in ran.stdout


def _export(tmp_path: Path, *args: str, book: Gradebook | None = None) -> tuple[int, str, Path]:
    gradebook = tmp_path / "gradebook.json"
    gradebook.write_text((book or _book()).to_json())
    out = tmp_path / "out.csv"
    ran = CliRunner().invoke(cli, ["export", str(gradebook), "-o", str(out), *args])
    return ran.exit_code, ran.stderr + ran.stdout, out


def _canvas(tmp_path: Path, text: str | None = None) -> Path:
    roster = tmp_path / "canvas.csv"
    if text is None:
        shutil.copy(LMS / "canvas.csv", roster)
    else:
        roster.write_text(text)
    return roster


def test_unmatched_on_either_side_writes_nothing_and_exits_1(tmp_path: Path) -> None:
    roster = _canvas(tmp_path)
    code, said, out = _export(
        tmp_path, "--lms", "canvas", "--roster", str(roster), "--column", "Quiz 1"
    )
    assert code == 1 and not out.exists()
    assert "match no student: =eve\\x1b[2J" in said
    assert "1 student(s) have no submission: erin (row 7)" in said  # Test Student not listed
    assert "nothing written" in said and "--allow-unmatched" in said


def test_a_map_of_pairs_matches_other_names(tmp_path: Path) -> None:
    roster = _canvas(tmp_path)
    pairs = tmp_path / "map.csv"
    pairs.write_text(
        "submission,SIS User ID\nalice,S101\nbob,S102\ncarol,S103\ndave,S104\n=eve\x1b[2J,S105\n"
    )
    code, said, out = _export(
        tmp_path,
        *("--lms", "canvas", "--roster", str(roster), "--column", "Quiz 1 (1234)"),
        *("--map", str(pairs), "--match-column", "SIS User ID"),
    )
    assert code == 4, said  # every one matched; carol not graded
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8-sig"), newline="")))
    assert [r[5] for r in rows[2:]] == ["10", "7.5", "", "0", "2.5", ""]


def test_two_submissions_of_one_student_are_refused(tmp_path: Path) -> None:
    roster = _canvas(tmp_path)
    pairs = tmp_path / "map.csv"
    pairs.write_text("submission,SIS Login ID\nalice,alice\nbob, ALICE\n")
    code, said, out = _export(
        tmp_path,
        *("--lms", "canvas", "--roster", str(roster), "--column", "Quiz 1"),
        *("--map", str(pairs), "--allow-unmatched"),
    )
    assert not out.exists()
    assert code == 2 and "'alice' and 'bob' both match row 3 of the export ('alice')" in said


def test_per_case_columns_are_added_after_the_last(tmp_path: Path) -> None:
    roster = _canvas(tmp_path)
    code, said, out = _export(
        tmp_path,
        *("--lms", "canvas", "--roster", str(roster), "--column", "Quiz 1"),
        *("--case-columns", "--allow-unmatched"),
    )
    assert code == 4 and "carol" in said
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8-sig"), newline="")))
    assert rows[0][-4:] == ["Quiz 1: 01", "Quiz 1: 02", "Quiz 1: 03", "Quiz 1: 04"]
    assert rows[2][-4:] == ["2", "2", "2", "2"] and rows[3][-4:] == ["2", "2", "2", "0"]
    assert rows[4][-4:] == ["", "", "", ""]  # carol, not graded: nothing per case either


def test_a_value_a_spreadsheet_would_run_is_written_as_text(tmp_path: Path) -> None:
    text = (LMS / "canvas.csv").read_text(encoding="utf-8-sig")
    text = text.replace('"Lovelace, Ada"', '"=HYPERLINK(""http://x"",""Ada"")"')
    text = text.replace('"Noether, Emmy"', "@SUM(A1)").replace("26.67,26.67", "-3.5,-")
    text = text.replace("Final Score,", "+Final Score,")  # the teacher's own column names
    roster = _canvas(tmp_path, text)
    code, said, out = _export(
        tmp_path,
        *("--lms", "canvas", "--roster", str(roster), "--column", "Quiz 1"),
        "--allow-unmatched",
    )
    assert code == 4 and "=HYPERLINK" not in said  # the student row matched: not listed
    rows = list(csv.reader(io.StringIO(out.read_text(), newline="")))
    assert rows[2][0] == '\'=HYPERLINK("http://x","Ada")'
    assert rows[6][0] == "'@SUM(A1)"
    assert rows[2][-2:] == ["-3.5", "-"]  # a number and a lone dash are data
    assert "+Final Score" in rows[0]  # the header: the LMS finds its columns by it


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("--column", "Nothing"), "no column is named 'Nothing'"),
        (("--column", "Current Score"), "read only in Canvas"),
        (("--column", "Quiz 1", "--match-column", "Email"), "no column 'Email'"),
        (("--column", "Quiz 1", "--max-points", "5"), "out of 10 points, not --max-points 5"),
        (("--column", "SIS Login ID"), "'SIS Login ID' names the students"),
        (("--column", "Section"), "'Section' names the students"),
        (("--column", "Quiz 1", "--match-column", "Section"), "'Section A' is on two rows"),
    ],
)
def test_a_wrong_column_is_one_line_and_exit_2(
    tmp_path: Path, args: tuple[str, ...], error: str
) -> None:
    roster = _canvas(tmp_path)
    code, said, out = _export(tmp_path, "--lms", "canvas", "--roster", str(roster), *args)
    assert code == 2 and error in said and not out.exists()


def test_an_export_of_another_lms_is_refused(tmp_path: Path) -> None:
    code, said, _ = _export(
        tmp_path, "--lms", "blackboard", "--roster", str(LMS / "canvas.csv"), "--column", "Quiz 1"
    )
    assert code == 2 and "not a blackboard gradebook export: no column Last Name" in said


def test_the_export_itself_is_never_written_over(tmp_path: Path) -> None:
    roster = _canvas(tmp_path)
    gradebook = tmp_path / "gradebook.json"
    gradebook.write_text(_book().to_json())
    ran = CliRunner().invoke(
        cli,
        [
            *("export", str(gradebook), "--lms", "canvas", "--roster", str(roster)),
            *("--column", "Quiz 1", "-o", str(roster), "--allow-unmatched"),
        ],
    )
    assert ran.exit_code == 2 and "is an input of grade export" in ran.stderr
    assert roster.read_bytes() == (LMS / "canvas.csv").read_bytes()


def test_moodle_scores_scale_to_max_points_when_given(tmp_path: Path) -> None:
    book = _book({n: f"{n}@example.edu" for n in ("alice", "bob", "carol", "dave")})
    roster = tmp_path / "moodle.csv"
    shutil.copy(LMS / "moodle.csv", roster)
    code, said, out = _export(
        tmp_path,
        *("--lms", "moodle", "--roster", str(roster), "--column", "Week 1"),
        *("--max-points", "10", "--allow-unmatched"),
        book=book,
    )
    assert code == 4 and "points of 10" in said
    rows = list(csv.reader(io.StringIO(out.read_text(), newline="")))
    assert [r[7] for r in rows[1:]] == ["10", "7.5", "", "0", "10.00"]


def test_a_csv_gradebook_exports_too(tmp_path: Path) -> None:
    from grader.render.classbook import csv as gradebook_csv

    book = tmp_path / "g.csv"
    book.write_text(gradebook_csv(_book()))
    out = tmp_path / "out.csv"
    ran = CliRunner().invoke(
        cli,
        [
            *("export", str(book), "--lms", "canvas", "--roster", str(LMS / "canvas.csv")),
            *("--column", "Quiz 1", "-o", str(out), "--allow-unmatched"),
        ],
    )
    assert ran.exit_code == 4, ran.stderr
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8-sig"), newline="")))
    assert [r[5] for r in rows[2:]] == ["10", "7.5", "", "0", "10.00", ""]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("a,b\r\n1,2\r\n", [("a", "b"), ("1", "2")]),
        ('a,"b\nc"\n"x ""y""",\n', [("a", "b\nc"), ('x "y"', "")]),
        ("a,b\n1,2", [("a", "b"), ("1", "2")]),  # no line end after the last
        ("a\rb\r", [("a",), ("b",)]),  # old Mac line ends
        ('"a"x,b\n', [("ax", "b")]),  # text after a closing quote kept, as spreadsheets do
        ("a,b\n\n1,2\n", [("a", "b"), ("",), ("1", "2")]),  # a blank line stays a line
    ],
)
def test_a_sheet_reads_as_csv_does_and_writes_back_byte_for_byte(
    tmp_path: Path, text: str, values: list[tuple[str, ...]]
) -> None:
    path = tmp_path / "s.csv"
    path.write_bytes(text.encode())
    sheet = read_sheet(path)
    assert [r.values for r in sheet.records] == values
    assert sheet.written({}) == text.encode()
    changed = sheet.written({(0, 0): 'new, "quoted"'}).decode()
    assert next(csv.reader(io.StringIO(changed, newline="")))[0] == 'new, "quoted"'


def test_an_unclosed_quote_or_another_encoding_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    path.write_text('a,"b\n1,2\n')
    with pytest.raises(UsageError, match="never closes"):
        read_sheet(path)
    path.write_bytes("Student,ID\nJosé,1\n".encode("latin-1"))
    with pytest.raises(UsageError, match="not UTF-8"):
        read_sheet(path)


def test_a_map_with_a_huge_cell_reads_whole(tmp_path: Path) -> None:
    """The review's: a --map cell past the csv module's field limit was exit 4; the map is read
    as the roster is (sheet.py), which has no such limit."""
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(f"submission,value\nalice,{'x' * 200_000}\n")
    assert read_pairs(pairs) == {"alice": "x" * 200_000}


@pytest.mark.parametrize(
    ("encoding", "delimiter"),
    [("utf-8", ","), ("utf-8-sig", ","), ("utf-16", "\t"), ("utf-8", "\t")],
)
def test_a_map_is_read_as_the_roster_is(tmp_path: Path, encoding: str, delimiter: str) -> None:
    """A spreadsheet saves the map as it saves the roster: UTF-16 and tab-separated from
    Excel's "Unicode Text", a byte order mark from "CSV UTF-8". The map was read by the csv
    module as UTF-8 with commas only: the roster's rules (sheet.py) now read both files."""
    pairs = tmp_path / "pairs.csv"
    rows = [["submission", "value"], ["alice", "a@x.edu"], ['b "2", c', "José"], ["", ""]]
    lines = [delimiter.join(f'"{c}"' if '"' in c or "," in c else c for c in r) for r in rows]
    text = "\r\n".join(line.replace('"2"', '""2""') for line in lines) + "\r\n"
    pairs.write_bytes(text.encode(encoding))
    assert read_pairs(pairs) == {"alice": "a@x.edu", 'b "2", c': "José"}


def test_a_tab_in_a_cell_of_a_file_of_cr_lines_is_no_separator(tmp_path: Path) -> None:
    """The review's: the separator was read off the text before the first LF, which in a file
    of CR line ends (Excel's "CSV (Macintosh)") is the whole file: one tab in any cell made
    every line tab-separated, and a --map read {'alice,a': 'b'}."""
    pairs = tmp_path / "pairs.csv"
    pairs.write_bytes(b"submission,value\ralice,a\tb\r")
    assert read_pairs(pairs) == {"alice": "a\tb"}
    pairs.write_bytes(b"submission\tvalue\ralice\ta,b\r")  # tab-separated: its first line
    assert read_pairs(pairs) == {"alice": "a,b"}


def test_a_map_that_cannot_be_read_says_it_is_the_map(tmp_path: Path) -> None:
    """The review's: read as the roster is, a map's errors lost the words that said which of
    the command's files it was ("cannot read the map ...")."""
    with pytest.raises(UsageError, match=r"^--map: cannot read .*absent\.csv"):
        read_pairs(tmp_path / "absent.csv")
    broken = tmp_path / "pairs.csv"
    broken.write_text('submission,value\nalice,"a\n')
    with pytest.raises(UsageError, match=r"^--map: .*pairs\.csv: a quote opened on line 2"):
        read_pairs(broken)


def test_a_short_record_is_filled_out_before_its_value(tmp_path: Path) -> None:
    """The review's: a spreadsheet drops a row's trailing empty cells, and a score for a field
    past such a row's end was dropped while the summary counted it filled; added per-case
    columns landed under the wrong headers."""
    path = tmp_path / "s.csv"
    path.write_text("a,b,c\n1\n2,x,\n")
    sheet = read_sheet(path)
    assert sheet.written({(1, 2): "9", (2, 2): "8"}) == b"a,b,c\n1,,9\n2,x,8\n"
    added = sheet.written({}, {0: ["d"], 1: ["5"], 2: ["6"]})
    assert added == b"a,b,c,d\n1,,,5\n2,x,,6\n"
